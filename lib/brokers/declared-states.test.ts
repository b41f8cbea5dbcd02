import { beforeEach, describe, expect, it, vi } from 'vitest';
import { listTotal } from '@/lib/client/list-total';
import { queueSamples } from '@/lib/metrics/snapshot';
import { renderSnapshot } from '@/lib/metrics/render';
import { ConsoleError } from './errors';
import {
  allCapabilities,
  countOf,
  DEAD,
  timeOf,
  ZTaskListQuery,
  type BrokerModel,
  type BrokerOverview,
  type StateDecl,
  type StateRole,
} from './schema';
import type { BrokerAdapter, BrokerConfig } from './types';

// A made-up adapter with Simple Durable Jobs' seven states, some listable and some not, run
// through the service, the overview's readers and /metrics: the declaration alone drives them,
// with nothing in the contract naming these states.

const configs: BrokerConfig[] = [];
let adapter: Partial<BrokerAdapter>;

vi.mock('./registry', () => ({
  findBrokerConfig: (id: string) => {
    const c = configs.find((x) => x.id === id);
    if (!c) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
    return c;
  },
  getAdapter: () => adapter,
  brokerKindOf: () => 'postgres',
  listBrokerConfigs: () => configs,
}));

const service = await import('./service');

const state = (key: string, field: string, owned = false, role?: StateRole): StateDecl => ({
  key,
  label: key[0]!.toUpperCase() + key.slice(1),
  time: { field, label: field },
  order: { by: 'time', field, dir: 'asc', label: field },
  owned,
  ...(role ? { role } : {}),
});
// Its `pending` plays `waiting`; its own `waiting` (on child jobs) plays no role.
const STATES = [
  state('pending', 'createdAt', false, 'waiting'),
  state('running', 'claimedAt', true, 'running'),
  state('waiting', 'runAt'),
  // A time of the system's own, not one of the common three.
  state('paused', 'pausedAt'),
  state('failed', 'createdAt'),
  state('cancelled', 'createdAt'),
  state('completed', 'createdAt'),
];
const MODEL: BrokerModel = {
  system: 'sdj',
  states: STATES,
  actions: {
    replay: { does: 'r', bulkRate: null },
    discard: { does: 'd' },
    revoke: { does: 'v', bulk: 'vb' },
    purge: { does: 'p', what: 'every pending and waiting job', counts: ['pending', 'waiting'], stays: 's' },
    enqueue: { does: 'e', defaultQueue: 'default', fields: [] },
  },
};
const FINISHED_WHY = 'finished jobs are results here, not listed with waiting work';
const caps = () => {
  const c = allCapabilities(STATES);
  c['list:paused'] = { on: false, why: 'this version of the library keeps paused jobs out of its API' };
  for (const k of ['failed', 'cancelled', 'completed']) c[`list:${k}`] = { on: false, why: FINISHED_WHY };
  return c;
};
const counts = (n: number[]) => Object.fromEntries(STATES.map((st, i) => [st.key, n[i] ?? null]));
const at = Date.parse('2026-12-01T10:00:00Z');
const overview = (): BrokerOverview => ({
  id: 'sdj',
  name: 'Jobs',
  kind: 'postgres',
  serverInfo: null,
  readOnly: false,
  capabilities: caps(),
  queues: [
    { name: 'emails', counts: counts([5, 1, 3, 2, 7, 0, 40]), dead: 4, oldestWaitingAt: '2026-12-01T09:58:00Z', tasks: null },
    { name: 'idle', counts: { ...counts([0, 0, 0, 0, 0, 0, 0]), completed: null }, dead: 0, oldestWaitingAt: null, tasks: null },
  ],
  totals: { counts: { ...counts([5, 1, 3, 2, 7, 0, 40]), completed: null }, dead: 4 },
  workers: null,
  readAt: new Date(at).toISOString(),
});

beforeEach(() => {
  configs.length = 0;
  configs.push(
    { id: 'sdj', name: 'Jobs', kind: 'sdj', url: 'postgresql://h/db', readOnly: false, options: {} },
    { id: 'ro', name: 'Jobs RO', kind: 'sdj', url: 'postgresql://h/db', readOnly: true, options: {} },
  );
  adapter = { model: MODEL, capabilities: async () => caps(), overview: async () => overview(), listTasks: vi.fn() };
});

describe('a system declaring seven states of its own', () => {
  it('keeps its counts keyed by its states through the service, in declaration order', async () => {
    const o = await service.overview('sdj');
    expect(o.model?.states.map((s) => s.key)).toEqual(['pending', 'running', 'waiting', 'paused', 'failed', 'cancelled', 'completed']);
    const emails = o.queues[0]!;
    expect(o.model!.states.map((s) => countOf(emails, s.key))).toEqual([5, 1, 3, 2, 7, 0, 40]);
    expect(countOf(emails, DEAD)).toBe(4);
    expect(countOf(o.totals, 'completed')).toBeNull();
    expect(listTotal(o, 'waiting', { queue: 'emails' })).toBe('3');
    expect(listTotal(o, 'paused', {})).toBe('2');
    expect(listTotal(o, 'completed', {})).toBeNull();
  });

  it('lists the states whose listing capability is on and refuses the others with its reason', async () => {
    await service.listTasks('sdj', ZTaskListQuery.parse({ state: 'waiting' }));
    expect(adapter.listTasks).toHaveBeenCalledOnce();
    await expect(service.listTasks('sdj', ZTaskListQuery.parse({ state: 'completed' }))).rejects.toMatchObject({
      code: 'Unsupported',
      message: FINISHED_WHY,
    });
    await expect(service.listTasks('sdj', ZTaskListQuery.parse({ state: 'ready' }))).rejects.toMatchObject({ code: 'InvalidInput' });
    expect(adapter.listTasks).toHaveBeenCalledOnce();
  });

  it('keeps listing on for a read-only broker: listing is a read, writes go', async () => {
    const o = await service.overview('ro');
    expect(o.capabilities['list:waiting']).toEqual({ on: true });
    expect(o.capabilities['list:paused']?.on).toBe(false);
    expect(o.capabilities.replay).toMatchObject({ on: false, code: 'ReadOnly' });
  });

  it('exports one series per declared state and dead letters, unknown ones left out', async () => {
    const o = await service.overview('sdj');
    const [emails, idle] = queueSamples(o, at);
    expect(emails!.counts.map((c) => [c.state, c.value])).toEqual([
      ['pending', 5],
      ['running', 1],
      ['waiting', 3],
      ['paused', 2],
      ['failed', 7],
      ['cancelled', 0],
      ['completed', 40],
      ['dead', 4],
    ]);
    // The oldest wait is the first declared state's (pending), 120 s; an idle queue's is 0.
    expect([emails!.oldestAgeSeconds, idle!.oldestAgeSeconds]).toEqual([120, 0]);
    expect(idle!.counts.map((c) => c.state)).not.toContain('completed');
    const text = await renderSnapshot({
      takenAt: at,
      brokers: [
        {
          id: 'sdj',
          name: 'Jobs',
          kind: 'postgres',
          system: 'sdj',
          systemLabel: 'Simple Durable Jobs',
          storeLabel: 'PostgreSQL',
          ok: true,
          seconds: 0.1,
          error: null,
          overview: o,
        },
      ],
    });
    expect(text).toContain('potatoq_console_queue_tasks{broker="sdj",queue="emails",state="paused"} 2');
    expect(text).toContain('potatoq_console_queue_tasks{broker="sdj",queue="emails",state="completed"} 40');
    expect(text).not.toMatch(/state="ready"/);
  });

  it("orders and heads a state by a time of the system's own, named by the declaration", () => {
    const paused = STATES.find((st) => st.key === 'paused')!;
    const t = { createdAt: '2026-12-01T09:00:00Z', runAt: null, claimedAt: null, times: { pausedAt: '2026-12-01T09:30:00Z' } };
    expect(timeOf(t, paused.time.field)).toBe('2026-12-01T09:30:00Z');
    expect(timeOf(t, STATES[0]!.time.field)).toBe('2026-12-01T09:00:00Z');
    expect(timeOf({ ...t, times: undefined }, 'pausedAt')).toBeNull();
  });
});

describe('a system whose waiting work is neither called ready nor declared first', () => {
  // The same states, its own `waiting` (on child jobs, no role) and `paused` declared before
  // `pending`, the state that plays `waiting`.
  const LATE = [STATES[2]!, STATES[3]!, STATES[0]!, STATES[1]!];
  beforeEach(() => {
    adapter = { ...adapter, model: { ...MODEL, states: LATE } };
  });

  it("lists the state that plays `waiting` when a request names none, by the adapter's declaration", async () => {
    await service.listTasks('sdj', ZTaskListQuery.parse({ queue: 'emails' }));
    expect(adapter.listTasks).toHaveBeenCalledWith(expect.objectContaining({ state: 'pending', queue: 'emails' }));
    // Without any role declared, the first declared state.
    adapter = { ...adapter, model: { ...MODEL, states: LATE.map(({ role: _role, ...st }) => st) } };
    await service.listTasks('sdj', ZTaskListQuery.parse({}));
    expect(adapter.listTasks).toHaveBeenLastCalledWith(expect.objectContaining({ state: 'waiting' }));
  });

  it("measures the overview's oldest wait on the waiting state's count, not the first declared", async () => {
    const counts = (pending: number) => ({ waiting: 3, paused: 1, pending, running: 0 });
    const o: BrokerOverview = {
      ...overview(),
      queues: [
        { name: 'drained', counts: counts(0), dead: 0, oldestWaitingAt: null, tasks: null },
        { name: 'unknown', counts: counts(2), dead: 0, oldestWaitingAt: null, tasks: null },
      ],
      model: { ...MODEL, states: LATE },
    };
    // Nothing waits in `drained` (its children-waiting jobs are no queue wait): 0 s, not unknown.
    expect(queueSamples(o, at).map((q) => q.oldestAgeSeconds)).toEqual([0, null]);
  });
});
