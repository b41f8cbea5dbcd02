import { describe, expect, it } from 'vitest';
import type { QueueStats } from '@/lib/brokers/schema';
import { applyScans, emptyQueue, scanFinished, totalsOf, type StateScan } from './counts';

const q = (name: string, over: Partial<QueueStats> & { ready?: number } = {}): QueueStats => {
  const { ready, ...rest } = over;
  const e = emptyQueue(name);
  return { ...e, ...rest, counts: { ...e.counts, ...(ready === undefined ? {} : { ready }) } };
};
const scan = (key: StateScan['key'], limit: number, rows: Record<string, number>): StateScan => ({
  key,
  limit,
  rows: Object.entries(rows).map(([queue, n]) => ({ queue, n })),
});

describe('per-queue counts from a bounded scan of one state', () => {
  it('is exact for every queue when the scan read the whole state, past the per-queue cap too', () => {
    const out = applyScans([q('emails', { ready: 2 })], [scan('dead', 5000, { emails: 150, bulk: 1200 })]);
    expect(out.map((x) => [x.name, x.dead, x.capped])).toEqual([
      ['bulk', 1200, undefined],
      ['emails', 150, undefined],
    ]);
  });

  it('makes every queue a lower bound when the scan stopped, the ones it never reached "at least 0"', () => {
    const s = scan('dead', 1000, { bulk: 1001 });
    expect(scanFinished(s)).toBe(false);
    const out = applyScans([q('emails', { ready: 2 })], [s], (key, name) => (name === 'emails' ? 150 : 1200));
    const by = Object.fromEntries(out.map((x) => [x.name, x]));
    expect(by.bulk?.dead).toBe(1001);
    expect(by.bulk?.capped?.dead).toMatchObject({ atLeast: 1001, estimate: 1200 });
    expect(by.emails?.dead).toBe(0);
    expect(by.emails?.capped?.dead).toMatchObject({ atLeast: 0, estimate: 150 });
    expect(by.emails?.capped?.dead?.why).toMatch(/more than 1,000 dead letters .*countScan.*lower bound/);
    // An estimate below what was seen is raised to it; no estimate stays null.
    expect(applyScans([], [scan('scheduled', 2, { a: 3 })], () => 1)[0]?.capped?.scheduled).toMatchObject({ atLeast: 3, estimate: 3 });
    expect(applyScans([q('b')], [scan('running', 2, { a: 3 })])[0]?.capped?.running).toMatchObject({ atLeast: 3, estimate: null });
  });

  it('leaves the other states alone and sums a lower bound into the totals', () => {
    const out = applyScans([q('a', { ready: 4 })], [scan('scheduled', 10, { a: 2 }), scan('dead', 1, { a: 2 })]);
    expect(out[0]).toMatchObject({ counts: { ready: 4, scheduled: 2 }, dead: 2 });
    expect(out[0]?.capped?.scheduled).toBeUndefined();
    const { totals, capped } = totalsOf(out);
    expect(totals.dead).toBe(2);
    expect(capped?.dead).toMatchObject({ atLeast: 2, estimate: null });
    expect(capped?.dead?.why).toContain('dead letters');
    expect(capped?.scheduled).toBeUndefined();
  });
});
