// The behaviour both trend stores must have, run against SQLite (unit: a temp file) and against
// PostgreSQL (int: the real server). `open()` makes another instance's store on the same place.
import { afterEach, expect, it } from 'vitest';
import { createSampler } from '@/lib/trends/sampler';
import type { SampleRow, TrendStore } from '@/lib/trends/store';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function trendStoreCases(open: () => Promise<TrendStore>, broker: () => string): void {
  const opened: TrendStore[] = [];
  const make = async () => {
    const s = await open();
    opened.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });

  it('lets one holder at a time hold the lease, renews it, and hands it over when released or run out', async () => {
    const [a, b] = [await make(), await make()];
    await a.release('a');
    await b.release('b');
    // Whoever held it from an earlier case must have let it go (cases release at the end).
    expect(await a.lease('a', 400)).toBe(true);
    expect(await b.lease('b', 400)).toBe(false);
    expect(await a.lease('a', 400)).toBe(true);
    expect(await b.leaseHolder()).toBe('a');
    await a.release('a');
    expect(await b.lease('b', 300)).toBe(true);
    expect(await a.lease('a', 300)).toBe(false);
    await sleep(450);
    expect(await a.leaseHolder()).toBeNull();
    expect(await a.lease('a', 300)).toBe(true);
    await a.release('a');
  });

  it('writes a slot once, aggregates the highest sample per bucket, keeps unknown as null and prunes by time', async () => {
    const s = await make();
    const id = broker();
    const row = (atMs: number, depth: number | null, oldest: number | null): SampleRow => ({
      broker: id,
      queue: 'q1',
      atMs,
      depth,
      oldestSeconds: oldest,
      dead: 1,
    });
    const t0 = 1_800_000_000_000;
    expect(await s.write([row(t0, 5, 1.5), row(t0 + 30_000, 9, 0.5), row(t0 + 120_000, null, null)])).toBe(3);
    expect(await s.write([row(t0, 99, 99)])).toBe(0);
    const got = await s.read({ broker: id, queue: 'q1', fromMs: t0, bucketMs: 60_000, buckets: 4 });
    expect(got.depth).toEqual([9, null, null, null]);
    expect(got.oldestSeconds).toEqual([1.5, null, null, null]);
    expect(got.dead).toEqual([1, null, 1, null]);
    expect((await s.read({ broker: id, queue: 'other', fromMs: t0, bucketMs: 60_000, buckets: 2 })).depth).toEqual([null, null]);
    expect(await s.prune(t0 + 60_000)).toBeGreaterThanOrEqual(2);
    expect((await s.read({ broker: id, queue: 'q1', fromMs: t0, bucketMs: 60_000, buckets: 4 })).dead).toEqual([null, null, 1, null]);
  });

  it('keeps a capped sample as a lower bound: its bucket says "at least", an exact bucket does not', async () => {
    const s = await make();
    const id = broker();
    const t0 = 1_800_000_000_000;
    const row = (atMs: number, depth: number, depthCapped: boolean, deadCapped: boolean): SampleRow => ({
      broker: id,
      queue: 'q1',
      atMs,
      depth,
      oldestSeconds: null,
      dead: 0,
      depthCapped,
      deadCapped,
    });
    await s.write([
      row(t0, 1000, true, false),
      row(t0 + 30_000, 7, false, false),
      row(t0 + 60_000, 7, false, true),
      row(t0 + 120_000, 3, false, false),
    ]);
    const got = await s.read({ broker: id, queue: 'q1', fromMs: t0, bucketMs: 60_000, buckets: 3 });
    expect(got.depth).toEqual([1000, 7, 3]);
    expect(got.depthAtLeast).toEqual([true, false, false]);
    expect(got.deadAtLeast).toEqual([false, true, false]);
    expect(got.dead).toEqual([0, 0, 0]);
  });

  it('samples from exactly one of two instances, and the other takes over when the first stops', async () => {
    const id = broker();
    const [sa, sb] = [await make(), await make()];
    const taken: string[] = [];
    const take = (who: string) => async (atMs: number) => {
      taken.push(who);
      return [{ broker: id, queue: '', atMs, depth: 1, oldestSeconds: 0, dead: 0 }];
    };
    const opts = { intervalMs: 200, retentionMs: 3_600_000, log: () => {} };
    const a = createSampler({ ...opts, store: sa, holder: `a-${id}`, take: take('a') });
    const b = createSampler({ ...opts, store: sb, holder: `b-${id}`, take: take('b') });
    expect((await a.tick()).role).toBe('sampler');
    expect((await b.tick()).role).toBe('standby');
    expect((await a.tick()).role).toBe('sampler');
    expect((await b.tick()).role).toBe('standby');
    expect(taken).toEqual(['a', 'a']);
    await a.stop();
    expect((await b.tick()).role).toBe('sampler');
    expect(taken).toEqual(['a', 'a', 'b']);
    await b.stop();
  });

  it('leaves the slot to the instance that took over while a slow read outlasted the lease', async () => {
    const id = broker();
    const [sa, sb] = [await make(), await make()];
    const row = (atMs: number, depth: number) => [{ broker: id, queue: '', atMs, depth, oldestSeconds: 0, dead: 0 }];
    const opts = { intervalMs: 150, retentionMs: 3_600_000, log: () => {} };
    const a = createSampler({ ...opts, store: sa, holder: `slow-${id}`, take: async (at) => (await sleep(700), row(at, 9)) });
    const b = createSampler({ ...opts, store: sb, holder: `fast-${id}`, take: async (at) => row(at, 2) });
    const slow = a.tick();
    await sleep(550); // past a's 450 ms lease, while it still reads
    expect((await b.tick()).role).toBe('sampler');
    expect(await slow).toEqual({ role: 'standby' });
    const t0 = Date.now() - 5000;
    const got = await sa.read({ broker: id, queue: '', fromMs: t0, bucketMs: 10_000, buckets: 1 });
    expect(got.depth).toEqual([2]);
    await a.stop();
    await b.stop();
  });
}
