import { describe, expect, it, vi } from 'vitest';
import type { BrokerOverview } from '@/lib/brokers/dto';
import type { Snapshot } from '@/lib/metrics/snapshot';

const snap: { value: Snapshot } = { value: { takenAt: 0, brokers: [] } };
vi.mock('@/lib/metrics/snapshot', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/metrics/snapshot')>()),
  takeSnapshot: async () => snap.value,
}));
const { takeSamples } = await import('./take');

const now = Date.parse('2026-12-01T12:00:00Z');
const queue = (name: string, ready: number | null, oldestAgo: number | null, dead: number | null) => ({
  name,
  counts: { ready, scheduled: 0, running: 0 },
  dead,
  oldestWaitingAt: oldestAgo === null ? null : new Date(now - oldestAgo * 1000).toISOString(),
  tasks: null,
});
const overview = (o: Partial<BrokerOverview>): BrokerOverview =>
  ({
    id: 'b1',
    name: 'b1',
    kind: 'sqlite',
    serverInfo: null,
    readOnly: false,
    capabilities: {} as BrokerOverview['capabilities'],
    queues: [],
    totals: { counts: { ready: 7, scheduled: 0, running: 0 }, dead: 2 },
    workers: { alive: 0, stale: 0 },
    readAt: '',
    ...o,
  }) as BrokerOverview;

describe('taking samples', () => {
  const potatoq = { system: 'potatoq' as const, systemLabel: 'potatoq', storeLabel: 'SQLite' };
  it("samples each queue's depth, oldest age and dead count, the broker's totals, and nothing of a broker that is down", async () => {
    snap.value = {
      takenAt: now,
      brokers: [
        {
          id: 'b1',
          name: 'b1',
          kind: 'sqlite',
          ...potatoq,
          ok: true,
          seconds: 0.01,
          error: null,
          overview: overview({ queues: [queue('a', 7, 30, 2), queue('b', null, null, null), queue('c', 0, null, 0)] }),
        },
        {
          id: 'down',
          name: 'down',
          kind: 'postgres',
          ...potatoq,
          ok: false,
          seconds: 10,
          error: { code: 'BrokerTimeout', message: 'slow' },
          overview: null,
        },
      ],
    };
    const rows = await takeSamples(60_000, 2);
    const exact = { depthCapped: false, deadCapped: false };
    expect(rows).toEqual([
      { broker: 'b1', queue: 'a', atMs: 60_000, depth: 7, oldestSeconds: 30, dead: 2, ...exact },
      // Unknown stays unknown (null), never 0; the cap (2 queues) drops queue c.
      { broker: 'b1', queue: 'b', atMs: 60_000, depth: null, oldestSeconds: null, dead: null, ...exact },
      { broker: 'b1', queue: '', atMs: 60_000, depth: 7, oldestSeconds: 30, dead: 2, ...exact },
    ]);
  });

  it('samples a count the broker did not finish as a lower bound, for the queue and the totals', async () => {
    const capped = { ...queue('emails', 1, null, 0), capped: { dead: { atLeast: 0, estimate: null } } };
    const o = overview({
      queues: [capped],
      totals: { counts: { ready: 1, scheduled: 0, running: 0 }, dead: 0 },
      totalsCapped: { dead: { atLeast: 0, estimate: null } },
    });
    snap.value = {
      takenAt: now,
      brokers: [{ id: 'b1', name: 'b1', kind: 'sqlite', ...potatoq, ok: true, seconds: 0.01, error: null, overview: o }],
    };
    const rows = await takeSamples(60_000, 10);
    expect(rows.map((r) => [r.queue, r.dead, r.deadCapped, r.depthCapped])).toEqual([
      ['emails', 0, true, false],
      ['', 0, true, false],
    ]);
  });

  it('plots the depth of the state that plays `waiting`, wherever the system declares it', async () => {
    const st = (key: string, role?: 'waiting') => ({ key, label: key, time: { field: 'createdAt', label: 't' }, owned: false, role });
    const model = { system: 'sdj', states: [st('waiting'), st('pending', 'waiting')] } as BrokerOverview['model'];
    const o = overview({
      model,
      queues: [{ name: 'emails', counts: { waiting: 9, pending: 4 }, dead: 0, oldestWaitingAt: null, tasks: null }],
      totals: { counts: { waiting: 9, pending: 4 }, dead: 0 },
    });
    snap.value = {
      takenAt: now,
      brokers: [{ id: 'b1', name: 'b1', kind: 'postgres', ...potatoq, system: 'sdj', ok: true, seconds: 0.01, error: null, overview: o }],
    };
    expect((await takeSamples(60_000, 10)).map((r) => [r.queue, r.depth])).toEqual([
      ['emails', 4],
      ['', 4],
    ]);
  });
});

/** Broker b1 of potatoq on SQLite, read with overview `o`. */
const answered = (o: BrokerOverview) => ({
  ...{ id: 'b1', name: 'b1', kind: 'sqlite', system: 'potatoq' as const, systemLabel: 'potatoq', storeLabel: 'SQLite' },
  ...{ ok: true, seconds: 0.01, error: null, overview: o },
});

describe('sampling thousands of queues', () => {
  it('keeps the busiest queues (waiting and dead summed), whatever order the overview lists them in, and the whole totals', async () => {
    const queues = Array.from({ length: 5000 }, (_, i) => queue(`t${String(i).padStart(4, '0')}`, i % 1000 === 7 ? 500 : 1, null, 0));
    queues[4321] = queue('t4321', 0, 3600, 900);
    const o = overview({ queues, totals: { counts: { ready: 9999, scheduled: 0, running: 0 }, dead: 900 } });
    snap.value = { takenAt: now, brokers: [answered(o)] };
    const rows = await takeSamples(60_000, 3);
    expect(rows.map((r) => [r.queue, r.depth, r.dead])).toEqual([
      ['t4321', 0, 900],
      ['t0007', 500, 0],
      ['t1007', 500, 0],
      ['', 9999, 900],
    ]);
    // The totals' oldest wait is the longest of every queue, sampled or not.
    expect(rows.at(-1)?.oldestSeconds).toBe(3600);
  });
});
