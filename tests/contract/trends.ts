import { expect } from 'vitest';
import { bucketTimes } from '@/lib/trends/schema';
import { contractCase, TRACEBACK, uniqueQueue, type Ctx } from './helpers';

const HOUR = 3_600_000;

export function registerTrends(ctx: Ctx): void {
  contractCase(
    ctx,
    'counts dead letters per hour by the died time the broker keeps, per queue and per group',
    { caps: ['browseDead'] },
    async (skip) => {
      const { a, s } = ctx();
      if (!a.deadHistogram) return skip('the adapter does not report when its dead letters died (deadHistogram is absent)');
      const q = uniqueQueue('hist');
      const other = uniqueQueue('hist-other');
      const before = Date.now();
      await s.deadLetter({ task: 'ct.h', queue: q, reason: TRACEBACK('ValueError: card 17 declined'), diedAgo: 2 * 3600 });
      await s.deadLetter({ task: 'ct.h', queue: q, reason: TRACEBACK('ValueError: card 4242 declined'), diedAgo: 2 * 3600 + 5 });
      await s.deadLetter({ task: 'ct.h', queue: q, reason: TRACEBACK('KeyError: nope') });
      await s.deadLetter({ task: 'ct.h', queue: other, reason: TRACEBACK('KeyError: nope') });
      const after = Date.now();
      const w = { fromMs: (Math.floor(after / HOUR) - 3) * HOUR, bucketMs: HOUR, buckets: 4 };
      // The letters died at the seeder's clock, somewhere between `before` and `after`.
      const expected = (now: number) => bucketTimes([now - 2 * HOUR, now - 2 * HOUR - 5000, now], w).counts;
      const h = await a.deadHistogram({ ...w, queue: q });
      expect([expected(before), expected(after)]).toContainEqual(h.counts);
      expect(h.undated).toBe(0);
      expect(h.counts.reduce((n, c) => n + c, 0)).toBe(3);

      const groups = (await a.deadGroups({ queue: q })).groups;
      const declined = groups.find((g) => g.pattern === 'ValueError: card <n> declined');
      expect(declined?.count).toBe(2);
      const g = await a.deadHistogram({ ...w, queue: q, group: declined!.fingerprint });
      expect(g.counts.reduce((n, c) => n + c, 0)).toBe(2);
      expect([
        bucketTimes([before - 2 * HOUR, before - 2 * HOUR - 5000], w).counts,
        bucketTimes([after - 2 * HOUR, after - 2 * HOUR - 5000], w).counts,
      ]).toContainEqual(g.counts);

      // Outside the window nothing is counted; each queue counts its own letters. (No call without a
      // queue: on a shared broker that reads every other test's queues too.)
      expect((await a.deadHistogram({ fromMs: w.fromMs - 10 * HOUR, bucketMs: HOUR, buckets: 4, queue: q })).counts).toEqual([0, 0, 0, 0]);
      expect((await a.deadHistogram({ ...w, queue: other })).counts.reduce((n, c) => n + c, 0)).toBe(1);
    },
  );
}
