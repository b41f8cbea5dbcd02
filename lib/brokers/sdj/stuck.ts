import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { isoOf, type SdjDb } from './db';
import { SUMMARY_COLUMNS, toSummary, type SdjJobSummary } from './jobs';

// Running jobs whose lock went stale, by the library's own reaper predicate:
// `COALESCE(last_heartbeat_at, started_at, locked_until) < NOW() - <stale-lock age>` (default 45
// min; a worker's `WithStaleLockAge` is not stored in the database, so the console uses the
// default unless told otherwise). Oldest first, on `idx_jobs_stale_lock` (the expression is
// written exactly as the index's), capped. Such a job is re-queued by the next reaper tick of a
// live worker; if it stays here, no worker is running the reaper.

export const STALE_LOCK_MINUTES = 45;

export interface SdjStaleJob extends SdjJobSummary {
  lastSignOfLife: string | null;
  lockedUntil: string | null;
}

export async function listStaleLocks(db: SdjDb, opts: { minutes?: number; limit?: number } = {}): Promise<SdjStaleJob[]> {
  const minutes = opts.minutes ?? STALE_LOCK_MINUTES;
  const limit = opts.limit ?? 100;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 10_080)
    throw new ConsoleError('InvalidInput', 'minutes: must be 1-10080', { minutes: 'must be 1-10080' });
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new ConsoleError('InvalidInput', 'limit: must be 1-1000', { limit: 'must be 1-1000' });
  const life = 'COALESCE(last_heartbeat_at, started_at, locked_until)';
  const cutoff = db.dialect === 'postgres' ? `NOW() - make_interval(mins => ${minutes})` : `NOW(3) - INTERVAL ${minutes} MINUTE`;
  const rows = await db.all(
    `SELECT ${SUMMARY_COLUMNS}, locked_until, ${life} AS life FROM jobs WHERE status = 'running' AND ${life} < ${cutoff} ORDER BY ${life} LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...toSummary(r), lastSignOfLife: isoOf(r.life), lockedUntil: isoOf(r.locked_until) }));
}
