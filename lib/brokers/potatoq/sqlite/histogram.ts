import 'server-only';
import type Database from 'better-sqlite3';
import type { DeadHistogram, DeadHistogramQuery } from '@/lib/brokers/schema';
import { bucketTimes } from '@/lib/trends/schema';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import { msFromEpoch } from '../mappers';
import { Where } from './sql';

/** Letters a group's histogram fingerprints at most (potatoq's own dead_letter_max). */
export const GROUP_WINDOW = 10_000;

/**
 * Dead letters per bucket of `died_at` (epoch seconds, on potatoq's `potatoq_dead_died` index).
 * Without a group SQLite counts them itself; a group is the reason's fingerprint, which SQL can't
 * compute, so the window's newest GROUP_WINDOW letters are fingerprinted here.
 */
export function deadHistogram(db: Database.Database, q: DeadHistogramQuery): DeadHistogram {
  const fromS = q.fromMs / 1000;
  const bucketS = q.bucketMs / 1000;
  const toS = fromS + bucketS * q.buckets;
  if (q.group === undefined) {
    const w = new Where().add('died_at >= ?', fromS).add('died_at < ?', toS).addIf(q.queue, 'queue = ?', q.queue);
    const rows = db
      .prepare(`SELECT CAST((died_at - ?) / ? AS INTEGER) AS b, count(*) AS n FROM potatoq_dead ${w} GROUP BY b`)
      .all(fromS, bucketS, ...w.params) as Array<{ b: number; n: number }>;
    const counts = new Array<number>(q.buckets).fill(0);
    for (const r of rows) if (r.b >= 0 && r.b < q.buckets) counts[r.b] = r.n;
    const u = new Where().add('died_at IS NULL').addIf(q.queue, 'queue = ?', q.queue);
    const undated = (db.prepare(`SELECT count(*) AS n FROM potatoq_dead ${u}`).get(...u.params) as { n: number }).n;
    return { counts, undated, scannedNewest: null };
  }
  const w = new Where().add('(died_at IS NULL OR (died_at >= ? AND died_at < ?))', fromS, toS).addIf(q.queue, 'queue = ?', q.queue);
  const rows = db
    .prepare(`SELECT reason, died_at FROM potatoq_dead ${w} ORDER BY died_at DESC LIMIT ?`)
    .all(...w.params, GROUP_WINDOW + 1) as Array<{ reason: string | null; died_at: number | null }>;
  const scanned = rows.slice(0, GROUP_WINDOW);
  const times = scanned.filter((r) => reasonFingerprint(r.reason).key === q.group).map((r) => msFromEpoch(r.died_at));
  return { ...bucketTimes(times, q), scannedNewest: rows.length > GROUP_WINDOW ? GROUP_WINDOW : null };
}
