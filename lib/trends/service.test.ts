import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { TrendStore } from './store';

// The trend service's rules against a fake adapter and store (the real ones are tested in
// tests/contract/trends.ts and tests/trends/store-cases.ts).
let adapter: Partial<BrokerAdapter>;
let store: Partial<TrendStore> | Error;
const config = { id: 'b', name: 'b', kind: 'potatoq', url: 'sqlite:///x', readOnly: false, options: {} };
vi.mock('@/lib/brokers/registry', () => ({
  findBrokerConfig: (id: string) => {
    if (id !== 'b') throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
    return config;
  },
  getAdapter: () => adapter,
  brokerKindOf: () => 'sqlite',
  listBrokerConfigs: () => [config],
}));
vi.mock('./store', () => ({ getTrendStore: async () => (store instanceof Error ? Promise.reject(store) : store) }));
// The recorded deaths and the campaigns' marks: what the console's state store answers.
let recorded: ((q: { buckets: number }) => number[]) | Error = (q) => new Array<number>(q.buckets).fill(0);
let marks: Array<Record<string, unknown>> = [];
vi.mock('./deaths-open', () => ({
  getDeathStore: async () => ({
    read: async (q: { buckets: number }) => (recorded instanceof Error ? Promise.reject(recorded) : recorded(q)),
  }),
}));
vi.mock('@/lib/state/sql', () => ({
  getStateDb: async () => ({ all: async () => marks }),
}));

const service = await import('./service');
const { ZDeadTrendQuery, ZQueueTrendQuery } = await import('./schema');
const deadTrend = (b: string, q: Record<string, string>, at: number) => service.deadTrend(b, ZDeadTrendQuery.parse(q), at);
const queueTrend = (b: string, q: Record<string, string>, at: number) => service.queueTrend(b, ZQueueTrendQuery.parse(q), at);
const now = Date.parse('2026-12-01T12:07:30Z');

beforeEach(() => {
  adapter = {};
  store = {};
  recorded = (q) => new Array<number>(q.buckets).fill(0);
  marks = [];
});

describe('dead-letter trends', () => {
  it("says why when the system's adapter can't tell when letters died", async () => {
    await expect(deadTrend('b', { range: 'hour', queue: 'q-none' }, now)).rejects.toMatchObject({ code: 'Unsupported' });
    await expect(deadTrend('nope', { range: 'hour' }, now)).rejects.toMatchObject({ code: 'NotFound' });
  });

  it("asks the adapter for the range's buckets, totals them, and shares one answer for 30 s", async () => {
    const deadHistogram = vi.fn(async (q: { buckets: number }) => ({
      counts: Array.from({ length: q.buckets }, (_, i) => (i === q.buckets - 1 ? 3 : i === 0 ? 1 : 0)),
      undated: 2,
      scannedNewest: null,
    }));
    adapter = { deadHistogram };
    const t = await deadTrend('b', { range: 'hour', queue: 'q1' }, now);
    expect(deadHistogram).toHaveBeenCalledWith({
      fromMs: Date.parse('2026-12-01T11:08:00Z'),
      toMs: Date.parse('2026-12-01T12:08:00Z'),
      bucketMs: 60_000,
      buckets: 60,
      queue: 'q1',
      group: undefined,
    });
    expect(t).toMatchObject({
      range: 'hour',
      from: '2026-12-01T11:08:00.000Z',
      to: '2026-12-01T12:08:00.000Z',
      bucketSeconds: 60,
      total: 4,
      undated: 2,
    });
    await deadTrend('b', { range: 'hour', queue: 'q1' }, now + 29_000);
    expect(deadHistogram).toHaveBeenCalledTimes(1);
    await deadTrend('b', { range: 'hour', queue: 'q1' }, now + 31_000);
    expect(deadHistogram).toHaveBeenCalledTimes(2);
  });

  it("follows a list's time range: the window, its buckets and the marks are of the range", async () => {
    const deadHistogram = vi.fn(async (q: { buckets: number }) => ({
      counts: new Array<number>(q.buckets).fill(1),
      undated: 0,
      scannedNewest: null,
    }));
    adapter = { deadHistogram };
    const t = await deadTrend('b', { range: 'hour', queue: 'q-range', since: '2026-12-01T02:00:00Z', until: '2026-12-01T08:20:00Z' }, now);
    expect(deadHistogram).toHaveBeenCalledWith(
      expect.objectContaining({ fromMs: Date.parse('2026-12-01T02:00:00Z'), bucketMs: 900_000, buckets: 26, queue: 'q-range' }),
    );
    expect(t).toMatchObject({ range: 'day', from: '2026-12-01T02:00:00.000Z', to: '2026-12-01T08:30:00.000Z', total: 26 });
    expect(t.clamped).toBeUndefined();
    const long = await deadTrend('b', { queue: 'q-range', since: '2026-10-01T00:00:00Z' }, now);
    expect(long).toMatchObject({ range: 'week', clamped: true, bucketSeconds: 3600 });
    await expect(deadTrend('b', { since: '2026-12-01T08:00:00Z', until: '2026-12-01T07:00:00Z' }, now)).rejects.toMatchObject({
      code: 'InvalidInput',
      fields: { until: 'until must be later than since' },
    });
  });

  it('marks a campaign begun since the shared answer at the next read, without asking the broker again', async () => {
    const deadHistogram = vi.fn(async (q: { buckets: number }) => ({
      counts: new Array<number>(q.buckets).fill(0),
      undated: 0,
      scannedNewest: null,
    }));
    adapter = { deadHistogram };
    expect((await deadTrend('b', { range: 'hour', queue: 'q-mark' }, now)).campaigns).toEqual([]);
    marks = [{ id: 'cmp-2', created_at: '2026-12-01T12:07:00.000Z', action: 'replay', total: 2 }];
    const t = await deadTrend('b', { range: 'hour', queue: 'q-mark' }, now + 1000);
    expect(deadHistogram).toHaveBeenCalledTimes(1);
    expect(t.campaigns).toEqual([{ id: 'cmp-2', at: '2026-12-01T12:07:00.000Z', action: 'replay', count: 2 }]);
  });

  it('does not keep a failure', async () => {
    adapter = { deadHistogram: vi.fn().mockRejectedValueOnce(new ConsoleError('BrokerUnavailable', 'down')) };
    await expect(deadTrend('b', { range: 'day', queue: 'q-fail' }, now)).rejects.toMatchObject({ code: 'BrokerUnavailable' });
    (adapter.deadHistogram as ReturnType<typeof vi.fn>).mockResolvedValueOnce({ counts: [], undated: 0, scannedNewest: null });
    await expect(deadTrend('b', { range: 'day', queue: 'q-fail' }, now)).resolves.toMatchObject({ total: 0 });
  });
});

describe('dead-letter trends with the recorded deaths', () => {
  const kept = (q: { buckets: number }) => ({
    counts: new Array<number>(q.buckets).fill(0).map((_, i) => (i === 5 ? 2 : 0)),
    undated: 0,
    scannedNewest: null,
  });

  it("counts the higher of the broker's kept letters and the recorded deaths per bucket, and marks the campaigns", async () => {
    adapter = { deadHistogram: vi.fn(async (q: { buckets: number }) => kept(q)) };
    // Seven died in bucket 3 and were replayed (the broker keeps none of them); bucket 5: two kept, one recorded.
    recorded = (q) => new Array<number>(q.buckets).fill(0).map((_, i) => (i === 3 ? 7 : i === 5 ? 1 : 0));
    marks = [{ id: 'cmp-1', created_at: '2026-12-01T11:30:00.000Z', action: 'replay', total: '7' }];
    const t = await deadTrend('b', { range: 'hour', queue: 'q-rec' }, now);
    expect(t.counts.slice(0, 7)).toEqual([0, 0, 0, 7, 0, 2, 0]);
    expect(t).toMatchObject({ total: 9, campaigns: [{ id: 'cmp-1', at: '2026-12-01T11:30:00.000Z', action: 'replay', count: 7 }] });
    expect(t.recorded?.[3]).toBe(7);
  });

  it("keeps the broker's count when the state store cannot be read, and says so (recorded: null)", async () => {
    adapter = { deadHistogram: vi.fn(async (q: { buckets: number }) => kept(q)) };
    recorded = new Error('state store down');
    const t = await deadTrend('b', { range: 'hour', queue: 'q-down' }, now);
    expect(t).toMatchObject({ total: 2, recorded: null, campaigns: [] });
  });
});

describe('sampled trends', () => {
  it("reads the broker's totals from the store, and answers 503 without details when the store can't be read", async () => {
    const read = vi.fn(async () => ({ depth: [1], oldestSeconds: [null], dead: [0], depthAtLeast: [false], deadAtLeast: [false] }));
    store = { read };
    const t = await queueTrend('b', { range: 'week' }, now);
    expect(read).toHaveBeenCalledWith(expect.objectContaining({ broker: 'b', queue: '', bucketMs: 3_600_000, buckets: 168 }));
    expect(t).toMatchObject({ queue: null, sampling: { on: true, intervalSeconds: 60 }, depth: [1] });
    store = new Error('connect ECONNREFUSED postgresql://u:secret@db');
    const e = await queueTrend('b', { range: 'day', queue: 'q' }, now).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'BrokerUnavailable' });
    expect(String((e as Error).message)).not.toContain('secret');
  });
});
