import 'server-only';
import type { DeadHistogram, DeadHistogramQuery } from '@/lib/brokers/schema';
import { bucketTimes } from '@/lib/trends/schema';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import { msFromEpoch } from '../mappers';
import type { PgNames } from './names';
import type { Sql } from './pool';
import { epoch, PgWhere } from './sql';

/**
 * Dead letters per bucket of `died_at`: an index range on potatoq's `dead_died`, counted by the
 * server. A group is the reason's fingerprint, which SQL can't compute: the range's newest
 * `window` letters are fingerprinted here (scannedNewest says so when there were more).
 */
export async function deadHistogram(sql: Sql, n: PgNames, q: DeadHistogramQuery, window: number): Promise<DeadHistogram> {
  const w = new PgWhere();
  const from = w.p(new Date(q.fromMs).toISOString());
  const to = w.p(new Date(q.fromMs + q.bucketMs * q.buckets).toISOString());
  w.add(`(died_at IS NULL OR (died_at >= ${from}::timestamptz AND died_at < ${to}::timestamptz))`).addIf(q.queue, (p) => `queue = ${p}`);
  if (q.group === undefined) {
    const bucket = w.p(q.bucketMs / 1000);
    const rows = await sql<{ b: number | null; n: string }>(
      `SELECT floor(extract(epoch FROM died_at - ${from}::timestamptz) / ${bucket})::int AS b, count(*) AS n FROM ${n.dead} ${w} GROUP BY 1`,
      w.params,
    );
    const counts = new Array<number>(q.buckets).fill(0);
    let undated = 0;
    for (const r of rows) {
      if (r.b === null) undated = Number(r.n);
      else if (r.b >= 0 && r.b < q.buckets) counts[r.b] = Number(r.n);
    }
    return { counts, undated, scannedNewest: null };
  }
  const rows = await sql<{ reason: string | null; died_epoch: number | null }>(
    `SELECT reason, ${epoch('died_at', 'died_epoch')} FROM ${n.dead} ${w} ORDER BY died_at DESC NULLS LAST LIMIT ${w.p(window + 1)}`,
    w.params,
  );
  const scanned = rows.slice(0, window);
  const times = scanned.filter((r) => reasonFingerprint(r.reason).key === q.group).map((r) => msFromEpoch(r.died_epoch));
  return { ...bucketTimes(times, q), scannedNewest: rows.length > window ? window : null };
}
