import { describe, expect, it } from 'vitest';
import { rangeWindow } from './ranges';

const now = Date.parse('2026-12-01T12:07:30Z');
const at = (iso: string) => Date.parse(iso);
const iso = (w: { fromMs: number; toMs: number }) => [new Date(w.fromMs).toISOString(), new Date(w.toMs).toISOString()];

describe("a chart's window that follows a list's time range", () => {
  it('takes the buckets of the shortest preset as long as the range, widened to whole buckets', () => {
    const hour = rangeWindow({ from: at('2026-12-01T11:30:10Z'), to: null }, now);
    expect(hour).toMatchObject({ range: 'hour', bucketMs: 60_000, buckets: 38, clamped: false });
    expect(iso(hour)).toEqual(['2026-12-01T11:30:00.000Z', '2026-12-01T12:08:00.000Z']);
    const day = rangeWindow({ from: at('2026-12-01T02:00:00Z'), to: at('2026-12-01T08:20:00Z') }, now);
    expect(day).toMatchObject({ range: 'day', bucketMs: 900_000, buckets: 26 });
    expect(iso(day)).toEqual(['2026-12-01T02:00:00.000Z', '2026-12-01T08:30:00.000Z']);
    const week = rangeWindow({ from: at('2026-11-28T00:00:00Z'), to: null }, now);
    expect(week).toMatchObject({ range: 'week', bucketMs: 3_600_000, clamped: false });
  });

  it('ends no later than now, starts no earlier than a week before its end, and says when it was clamped', () => {
    const future = rangeWindow({ from: at('2026-12-01T12:00:00Z'), to: at('2026-12-02T00:00:00Z') }, now);
    expect(iso(future)).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-01T12:08:00.000Z']);
    const long = rangeWindow({ from: at('2026-10-01T00:00:00Z'), to: null }, now);
    expect(long).toMatchObject({ range: 'week', clamped: true, buckets: 169 });
    const open = rangeWindow({ from: null, to: at('2026-11-30T00:00:00Z') }, now);
    expect(open).toMatchObject({ range: 'week', clamped: false, buckets: 168 });
    expect(iso(open)).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z']);
    // A range shorter than one bucket still has one.
    expect(rangeWindow({ from: now - 10_000, to: now - 5_000 }, now)).toMatchObject({ buckets: 1, bucketMs: 60_000 });
  });
});
