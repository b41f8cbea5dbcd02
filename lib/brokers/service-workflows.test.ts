import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from './errors';
import { CAPABILITIES, type Capabilities } from './schema';
import type { BrokerAdapter, BrokerConfig, WorkflowsAdapter } from './types';
import type { WorkflowDetail } from './workflow-schema';

// The Workflows service's own rules against a fake adapter (the QueueFlow adapter is tested
// with the real server in tests/brokers/queueflow/queueflow-workflows.int.test.ts).
const configs: BrokerConfig[] = [];
let adapter: { -readonly [K in keyof BrokerAdapter]?: BrokerAdapter[K] };
let retried: string[];

vi.mock('./registry', () => ({
  findBrokerConfig: (id: string) => {
    const c = configs.find((x) => x.id === id);
    if (!c) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
    return c;
  },
  getAdapter: () => adapter,
}));
vi.mock('@/lib/config', () => ({ getConfig: () => ({ timeouts: { readMs: 2000, writeMs: 2000 } }) }));

const flows = await import('./service-workflows');

const allOn = () => Object.fromEntries(CAPABILITIES.map((k) => [k, { on: true }])) as Capabilities;
const run = (status: string, on: boolean): WorkflowDetail => ({
  id: 'w1',
  name: 'nightly <b>import</b>',
  status,
  createdAt: '2026-12-04T10:00:00Z',
  startedAt: null,
  completedAt: null,
  error: null,
  retries: 0,
  stepCount: 2,
  parent: null,
  steps: [],
  failedSteps: ['b'],
  retry: on ? { on: true, resets: ['b', 'c'] } : { on: false, why: 'this one is completed', resets: [] },
  context: null,
  readAt: '2026-12-04T10:00:00Z',
});
const fake = (detail: WorkflowDetail | null): WorkflowsAdapter => ({
  list: async () => ({ items: [], nextCursor: null, total: 0 }),
  get: async () => detail,
  retry: async (id) => void retried.push(id),
  health: async () => ({ failed: 0, recent: [] }),
});
const decl = { runStatuses: [], stepStatuses: [], retry: { does: 'retries', from: ['failed'] }, unseen: [] };

beforeEach(() => {
  retried = [];
  configs.length = 0;
  configs.push({ id: 'b', name: 'b', kind: 'queueflow', url: 'http://x', readOnly: false, options: {} });
  configs.push({ id: 'ro', name: 'ro', kind: 'queueflow', url: 'http://x', readOnly: true, options: {} });
  adapter = {
    capabilities: async () => allOn(),
    workflows: fake(run('failed', true)),
    model: { workflows: decl } as unknown as BrokerAdapter['model'],
  };
});

describe('the Workflows service', () => {
  it("refuses a system without workflows with that system's reason", async () => {
    const why = 'potatoq keeps no workflow runs';
    adapter = { ...adapter, capabilities: async () => ({ ...allOn(), workflows: { on: false, why } }), workflows: undefined };
    await expect(flows.listWorkflows('b', { limit: 50 })).rejects.toMatchObject({ code: 'Unsupported', message: why });
  });

  it('retries after the typed name matches, saying how many steps go back', async () => {
    const r = await flows.retryWorkflow('b', { id: 'w1', confirm: 'nightly <b>import</b>' });
    expect(retried).toEqual(['w1']);
    expect(r.resets).toEqual(['b', 'c']);
    expect(r.succeeded[0]!.message).toContain('2 steps back to pending');
  });

  it('changes nothing when the typed name differs, the run is not retryable, unknown, or the broker read-only', async () => {
    await expect(flows.retryWorkflow('b', { id: 'w1', confirm: 'nightly import' })).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { confirm: expect.stringContaining('nightly') },
    });
    adapter.workflows = fake(run('completed', false));
    await expect(flows.retryWorkflow('b', { id: 'w1', confirm: 'nightly <b>import</b>' })).rejects.toMatchObject({ code: 'Conflict' });
    adapter.workflows = fake(null);
    await expect(flows.retryWorkflow('b', { id: 'w1', confirm: 'x' })).rejects.toMatchObject({ code: 'NotFound' });
    await expect(flows.getWorkflow('b', 'w1')).rejects.toMatchObject({ code: 'NotFound', fields: { id: expect.any(String) } });
    adapter.workflows = fake(run('failed', true));
    await expect(flows.retryWorkflow('ro', { id: 'w1', confirm: 'nightly <b>import</b>' })).rejects.toMatchObject({ code: 'ReadOnly' });
    expect(retried).toEqual([]);
  });
});
