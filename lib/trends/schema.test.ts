import { describe, expect, it } from 'vitest';
import { parseTrendConfig } from './config';
import { bucketTimes, trendWindow, ZDeadTrendQuery } from './schema';

describe('trend windows', () => {
  it('end at the bucket boundary after now and hold the range in whole buckets', () => {
    const now = Date.UTC(2026, 11, 1, 12, 7, 30);
    const w = trendWindow('hour', now);
    expect(new Date(w.toMs).toISOString()).toBe('2026-12-01T12:08:00.000Z');
    expect(w.buckets).toBe(60);
    expect(w.toMs - w.fromMs).toBe(3_600_000);
    expect(trendWindow('day', now).buckets).toBe(96);
    expect(trendWindow('week', now).bucketMs).toBe(3_600_000);
    // Exactly on a boundary, now is inside the last bucket, not past the end.
    const edge = trendWindow('hour', Date.UTC(2026, 11, 1, 12, 8));
    expect(edge.toMs).toBe(Date.UTC(2026, 11, 1, 12, 9));
  });

  it('counts times into their buckets, undated apart, outside ones dropped', () => {
    const w = { fromMs: 1000, bucketMs: 100, buckets: 3 };
    expect(bucketTimes([1000, 1099, 1100, 1299, 1300, 999, null, null], w)).toEqual({ counts: [2, 1, 1], undated: 2 });
  });

  it('reads the query with a day default and names a bad range', () => {
    expect(ZDeadTrendQuery.parse({})).toEqual({ range: 'day', queue: undefined, group: undefined });
    expect(ZDeadTrendQuery.safeParse({ range: 'year' }).error?.issues[0]?.path).toEqual(['range']);
  });
});

describe('trend settings', () => {
  it('default to a sample a minute kept for a week, and refuse a bad value naming the variable', () => {
    expect(parseTrendConfig({})).toEqual({ intervalMs: 60_000, retentionMs: 168 * 3_600_000, maxQueues: 200 });
    expect(parseTrendConfig({ POTATOQ_CONSOLE_TRENDS_INTERVAL_S: '0' }).intervalMs).toBe(0);
    expect(() => parseTrendConfig({ POTATOQ_CONSOLE_TRENDS_INTERVAL_S: '1.5' })).toThrow(/POTATOQ_CONSOLE_TRENDS_INTERVAL_S/);
    expect(() => parseTrendConfig({ POTATOQ_CONSOLE_TRENDS_RETENTION_HOURS: '0' })).toThrow(
      /RETENTION_HOURS: must be a whole number from 1/,
    );
  });
});
