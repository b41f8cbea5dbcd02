// The trend windows and their buckets, and the one bucketing rule. Client-safe and free of
// zod, so the charts import it without the schemas.

/** The windows a chart offers: its length and its bucket (fixed, so buckets stay put between polls). */
export const TREND_RANGES = {
  hour: { seconds: 3600, bucketSeconds: 60 },
  day: { seconds: 86_400, bucketSeconds: 900 },
  week: { seconds: 604_800, bucketSeconds: 3600 },
} as const;
export type TrendRange = keyof typeof TREND_RANGES;
/** The bucket window ending at the bucket boundary after `nowMs`. */
export function trendWindow(range: TrendRange, nowMs: number): { fromMs: number; toMs: number; bucketMs: number; buckets: number } {
  const r = TREND_RANGES[range];
  const bucketMs = r.bucketSeconds * 1000;
  const toMs = Math.ceil((nowMs + 1) / bucketMs) * bucketMs;
  return { fromMs: toMs - r.seconds * 1000, toMs, bucketMs, buckets: r.seconds / r.bucketSeconds };
}

/** The bucket of each preset, by its length: a time range gets the bucket of the shortest preset
 *  as long as it is. */
const BY_LENGTH = (Object.keys(TREND_RANGES) as TrendRange[]).map((r) => [r, TREND_RANGES[r]] as const);

/**
 * The window of a chart that follows a list's time range (epoch ms bounds, absent: open): it ends
 * at `to` (not after now) and starts at `from`, clamped to the longest preset's length (a week:
 * what the charts keep), on the buckets of the shortest preset as long as the range, widened to
 * whole buckets. `clamped`: `from` was earlier than the window can start.
 */
export function rangeWindow(r: { from: number | null; to: number | null }, nowMs: number) {
  const longest = TREND_RANGES.week.seconds * 1000;
  const end = Math.min(r.to ?? nowMs + 1, nowMs + 1);
  const start = Math.max(r.from ?? end - longest, end - longest);
  const [range, preset] = BY_LENGTH.find(([, p]) => end - start <= p.seconds * 1000) ?? BY_LENGTH[BY_LENGTH.length - 1]!;
  const bucketMs = preset.bucketSeconds * 1000;
  const toMs = Math.ceil(end / bucketMs) * bucketMs;
  const fromMs = Math.min(Math.floor(start / bucketMs) * bucketMs, toMs - bucketMs);
  const clamped = r.from !== null && r.from < start;
  return { range, fromMs, toMs, bucketMs, buckets: (toMs - fromMs) / bucketMs, clamped };
}

/** Counts times (epoch ms) into the window's buckets; null times are `undated`, others outside are dropped. */
export function bucketTimes(times: Iterable<number | null>, w: { fromMs: number; bucketMs: number; buckets: number }) {
  const counts = new Array<number>(w.buckets).fill(0);
  let undated = 0;
  for (const t of times) {
    if (t === null) {
      undated++;
      continue;
    }
    const i = Math.floor((t - w.fromMs) / w.bucketMs);
    if (i >= 0 && i < w.buckets) counts[i]! += 1;
  }
  return { counts, undated };
}
