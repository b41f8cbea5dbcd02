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
