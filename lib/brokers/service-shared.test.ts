import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIDDEN_TEXT } from '@/lib/redaction';
import { parseAuthConfig, setAuthConfigForTests } from '@/lib/auth/config';
import type { Principal } from '@/lib/auth/grants';
import { ConsoleError } from './errors';
import { CAPABILITIES, type BrokerOverview, type Capabilities, type DeadListQuery } from './schema';
import type { BrokerAdapter, BrokerConfig } from './types';

// The service's shared reads (read-cache.ts) against a counting fake adapter: what is shared,
// what a write forgets, and that per-request rules (read-only, masking, redaction) still apply
// to every caller of a shared answer. The real broker's side: tests/shared-reads-postgres.int.test.ts.
process.env.POTATOQ_CONSOLE_READ_CACHE_MS = '2000';

const configs: BrokerConfig[] = [
  { id: 'b', name: 'b', kind: 'potatoq', url: 'sqlite:///x', readOnly: false, options: {} },
  { id: 'ro', name: 'ro', kind: 'potatoq', url: 'sqlite:///y', readOnly: true, options: {} },
];
let adapter: Partial<BrokerAdapter>;
const calls: Record<string, number> = {};
const count = (k: string) => (calls[k] = (calls[k] ?? 0) + 1);

vi.mock('./registry', () => ({
  findBrokerConfig: (id: string) => {
    const c = configs.find((x) => x.id === id);
    if (!c) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
    return c;
  },
  getAdapter: () => adapter,
  brokerKindOf: () => 'sqlite',
  listBrokerConfigs: () => configs,
}));

const service = await import('./service');
const { resetSharedReads } = await import('./shared-reads');
const { readDead } = await import('@/lib/auth/redact');
const { overviewFor } = await import('@/lib/auth/mask');

const allOn = () => Object.fromEntries(CAPABILITIES.map((k) => [k, { on: true }])) as Capabilities;
const overview = (id: string): BrokerOverview => ({
  id,
  name: id,
  kind: 'sqlite',
  serverInfo: null,
  readOnly: false,
  capabilities: allOn(),
  queues: [],
  totals: { counts: { ready: 0, scheduled: 0, running: 0 }, dead: 0 },
  workers: { alive: 0, stale: 0 },
  readAt: new Date(0).toISOString(),
});
const letter = { id: 'd1', queue: 'q', task: 'x', preview: { kind: 'native', text: "('4111',)" }, summary: 'boom', diedAt: null };
const q = (over: Partial<DeadListQuery> = {}) => ({ limit: 50, ...over }) as DeadListQuery;
const viewer: Principal = { user: 'vera', role: 'viewer', via: 'session', readOnlyBrokers: [] };
const operator: Principal = { user: 'olga', role: 'operator', via: 'session', readOnlyBrokers: [] };

beforeEach(() => {
  resetSharedReads();
  for (const k of Object.keys(calls)) delete calls[k];
  adapter = {
    capabilities: async () => allOn(),
    overview: async () => (count('overview'), overview('b')),
    listDead: async () => (count('listDead'), { items: [letter], nextCursor: null }) as never,
    replayDead: async (ids) => (count('replay'), { action: 'replay', brokerId: 'b', requested: ids.length, succeeded: [], failed: [] }),
    discardDead: async () => {
      throw new Error('broker went away mid-write');
    },
  };
});
afterEach(() => setAuthConfigForTests(null));

describe('shared reads in the service', () => {
  it('answers 30 concurrent identical overviews with one adapter read', async () => {
    const all = await Promise.all(Array.from({ length: 30 }, () => service.overview('b')));
    expect(calls.overview).toBe(1);
    expect(all.every((o) => o.capabilities.replay.on)).toBe(true);
  });

  it('still applies read-only per broker, and masking per principal, to a shared answer', async () => {
    const ro = await service.overview('ro');
    expect(ro.capabilities.replay).toMatchObject({ on: false, code: 'ReadOnly' });
    const rw = await service.overview('b');
    expect(overviewFor(rw, viewer).capabilities.replay).toMatchObject({ on: false, code: 'Forbidden' });
    expect(overviewFor(await service.overview('b'), operator).capabilities.replay.on).toBe(true);
    expect(calls.overview).toBe(2); // one per broker, not per caller
  });

  it('redacts arguments after the shared read, leaving the shared answer whole', async () => {
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_REDACT_ARGS: '1' }));
    const [one, two] = await Promise.all([readDead('b', q()), readDead('b', q())]);
    expect(one.items[0]?.preview.text).toBe(HIDDEN_TEXT);
    expect(two.items[0]?.preview.text).toBe(HIDDEN_TEXT);
    // The same shared answer, read past the redaction (as the reveal action does): untouched.
    const whole = await service.listDead('b', q({ qIn: 'reason' }));
    expect(whole.items[0]?.preview.text).toBe("('4111',)");
    expect(calls.listDead).toBe(1);
  });

  it('keeps different queries apart', async () => {
    await service.listDead('b', q());
    await service.listDead('b', q({ queue: 'other' }));
    await service.listDead('b', q());
    expect(calls.listDead).toBe(2);
  });

  it("forgets the broker's answers after a replay, and after a write that failed", async () => {
    await service.listDead('b', q());
    await service.replayDead('b', ['d1']);
    await service.listDead('b', q());
    expect(calls.listDead).toBe(2);
    await expect(service.discardDead('b', ['d1'])).rejects.toThrow(/went away/);
    await service.listDead('b', q());
    expect(calls.listDead).toBe(3);
  });

  it('never shares a write: two identical replays both reach the adapter', async () => {
    await Promise.all([service.replayDead('b', ['d1']), service.replayDead('b', ['d1'])]);
    expect(calls.replay).toBe(2);
  });
});
