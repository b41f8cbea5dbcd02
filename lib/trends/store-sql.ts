import 'server-only';

/** One sample of one queue (or of the broker as a whole: queue `''`, which no queue is named). */
export interface SampleRow {
  broker: string;
  queue: string;
  /** The sampling slot: epoch ms rounded down to the interval (two samplers write the same slot). */
  atMs: number;
  depth: number | null;
  oldestSeconds: number | null;
  dead: number | null;
  /** The count was not finished (the broker's cap): `depth` / `dead` is a lower bound. */
  depthCapped?: boolean;
  deadCapped?: boolean;
}

export interface SeriesQuery {
  broker: string;
  queue: string;
  fromMs: number;
  bucketMs: number;
  buckets: number;
}

/** The highest sample of each bucket; null where a bucket has none (or only unknown values). */
export interface SeriesRows {
  depth: Array<number | null>;
  oldestSeconds: Array<number | null>;
  dead: Array<number | null>;
  /** True where a sample of the bucket was a lower bound (so the bucket's highest may be too). */
  depthAtLeast: boolean[];
  deadAtLeast: boolean[];
}

/**
 * Samples and the sampler's lease, in the console's state store (the audit trail's SQLite file
 * or PostgreSQL database): every console instance on one PostgreSQL store sees the same lease,
 * so exactly one of them samples.
 */
export interface TrendStore {
  /** Takes or renews the lease for `holder` for `ttlMs`; false while another holder's runs. */
  lease(holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up (a stopping instance), so another takes over at its next tick. */
  release(holder: string): Promise<void>;
  /** Who holds the lease now, if anyone's is still running. */
  leaseHolder(): Promise<string | null>;
  /** Writes samples; a (broker, queue, slot) already written is left alone. Returns rows written. */
  write(rows: SampleRow[]): Promise<number>;
  read(q: SeriesQuery): Promise<SeriesRows>;
  /** Deletes samples older than `beforeMs`. */
  prune(beforeMs: number): Promise<number>;
  close(): Promise<void>;
}

export const LEASE = 'trend-sampler';

/** `?` placeholders; PostgreSQL's store renumbers them. */
export const SERIES_SQL = `SELECT CAST((at_ms - ?) / ? AS INTEGER) AS b, max(depth) AS depth, max(oldest_s) AS oldest, max(dead) AS dead,
  max(depth_capped) AS depth_capped, max(dead_capped) AS dead_capped
  FROM console_trend_samples WHERE broker = ? AND queue = ? AND at_ms >= ? AND at_ms < ? GROUP BY 1`;

export function seriesArgs(q: SeriesQuery): unknown[] {
  return [q.fromMs, q.bucketMs, q.broker, q.queue, q.fromMs, q.fromMs + q.bucketMs * q.buckets];
}

type SeriesRow = { b: unknown; depth: unknown; oldest: unknown; dead: unknown; depth_capped?: unknown; dead_capped?: unknown };

export function seriesOf(q: SeriesQuery, rows: SeriesRow[]): SeriesRows {
  const empty = () => new Array<number | null>(q.buckets).fill(null);
  const flags = () => new Array<boolean>(q.buckets).fill(false);
  const out: SeriesRows = { depth: empty(), oldestSeconds: empty(), dead: empty(), depthAtLeast: flags(), deadAtLeast: flags() };
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  for (const r of rows) {
    const b = Number(r.b);
    if (!(b >= 0 && b < q.buckets)) continue;
    out.depth[b] = num(r.depth);
    out.oldestSeconds[b] = num(r.oldest);
    out.dead[b] = num(r.dead);
    out.depthAtLeast[b] = Number(r.depth_capped ?? 0) > 0;
    out.deadAtLeast[b] = Number(r.dead_capped ?? 0) > 0;
  }
  return out;
}

/** A sample's lower-bound flags as stored (1: a lower bound, 0: exact). */
export const cappedFlags = (r: SampleRow): [number, number] => [r.depthCapped ? 1 : 0, r.deadCapped ? 1 : 0];
