import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { decodeCursor, encodeCursor } from './cursor';
import { idParam, idText, isoOf, UUID, type Row, type SdjDb } from './db';
import { isSdjStatus, splitReason, unset, type SdjStatus } from './model';
import type { TimeRange } from '@/lib/brokers/time-range';

// Job lists are keyset pages, newest first, so page N costs what page 1 costs:
// - per status: `WHERE status = ? AND created_at <= ? AND (created_at < ? OR id > ?)
//   ORDER BY created_at DESC, id ASC` walks `idx_jobs_status_created (status, created_at DESC)`
//   from the cursor. The id tie-break runs the way the index already orders it: InnoDB appends
//   the primary key ascending to every secondary index, so MySQL reads the page straight off the
//   index with no sort; PostgreSQL's index has no id and sorts only the rows sharing one
//   timestamp (incremental sort);
// - dead letters: `(dead_lettered_at DESC, id DESC)` over `idx_jobs_dead_lettered_at`, the order
//   of the library's `ListDeadLettered` (MySQL reads that index backwards, id included).
// A queue filter is applied while walking (no index holds status + queue + time), so a filtered
// page reads the rows of that status it skips: bounded by the status's rows, not by depth.
// Rows with a NULL `created_at` (the column is nullable; every writer sets it) cannot hold a
// keyset position and are left out of the status lists (they are still counted).

export interface SdjJobSummary {
  id: string;
  type: string;
  queue: string;
  status: string;
  priority: number;
  attempt: number;
  maxRetries: number;
  createdAt: string | null;
  runAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  lockedBy: string | null;
  lastError: string | null;
  deadLetteredAt: string | null;
  deadLetterReason: string | null;
  reasonLabel: string | null;
  parentJobId: string | null;
  fanOutId: string | null;
}

export interface SdjPage<T> {
  items: T[];
  /** The next page's cursor, null at the end. */
  next: string | null;
}

export const SUMMARY_COLUMNS =
  'id, type, queue, status, priority, attempt, max_retries, created_at, run_at, started_at, completed_at, locked_by, last_error, dead_lettered_at, dead_letter_reason, parent_job_id, fan_out_id';

export function toSummary(r: Row): SdjJobSummary {
  const reason = unset(r.dead_letter_reason);
  return {
    id: idText(r.id) ?? '',
    type: String(r.type),
    queue: String(r.queue),
    status: String(r.status),
    priority: Number(r.priority),
    attempt: Number(r.attempt),
    maxRetries: Number(r.max_retries),
    createdAt: isoOf(r.created_at),
    runAt: isoOf(r.run_at),
    startedAt: isoOf(r.started_at),
    completedAt: isoOf(r.completed_at),
    lockedBy: unset(r.locked_by),
    lastError: unset(r.last_error),
    deadLetteredAt: isoOf(r.dead_lettered_at),
    deadLetterReason: reason,
    reasonLabel: splitReason(reason).label,
    parentJobId: idText(r.parent_job_id),
    fanOutId: idText(r.fan_out_id),
  };
}

export const MAX_PAGE = 500;

function pageSize(limit: number | undefined): number {
  const n = limit ?? 50;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE)
    throw new ConsoleError('InvalidInput', `limit: must be 1-${MAX_PAGE}`, { limit: `must be 1-${MAX_PAGE}` });
  return n;
}

interface PageSpec {
  where: string;
  params: unknown[];
  key: 'created_at' | 'dead_lettered_at';
  /** Direction of the id tie-break: the one the index already holds (see the top of the file). */
  tie: 'ASC' | 'DESC';
  limit?: number;
  cursor?: string | null;
}

/** The page's SQL and parameters (exported so tests can count what the database reads for it). */
export function keysetSql(db: SdjDb, o: PageSpec): { sql: string; params: unknown[]; limit: number } {
  const limit = pageSize(o.limit);
  const at = decodeCursor(o.cursor);
  const k = o.key;
  const after = at ? ` AND ${k} <= ? AND (${k} < ? OR id ${o.tie === 'ASC' ? '>' : '<'} ?)` : '';
  const params = at ? [...o.params, at.at, at.at, idParam(db.dialect, at.id)] : o.params;
  const sql = `SELECT ${SUMMARY_COLUMNS} FROM jobs WHERE ${o.where} AND ${k} IS NOT NULL${after} ORDER BY ${k} DESC, id ${o.tie} LIMIT ${limit + 1}`;
  return { sql, params, limit };
}

async function keysetPage(db: SdjDb, o: PageSpec): Promise<SdjPage<SdjJobSummary>> {
  const { sql, params, limit } = keysetSql(db, o);
  const rows = await db.all(sql, params);
  const items = rows.slice(0, limit).map(toSummary);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items, next: last ? encodeCursor({ at: String(last[o.key]), id: idText(last.id) ?? '' }) : null };
}

/** The spec of one status's page (optionally one queue, and finished in a time range:
 *  `finished` bounds `completed_at`, `since` inclusive, `until` exclusive, ISO). */
export function statusPage(
  status: SdjStatus,
  opts: { queue?: string; finished?: TimeRange; created?: TimeRange; limit?: number; cursor?: string | null },
): PageSpec {
  if (!isSdjStatus(status))
    throw new ConsoleError('InvalidInput', 'status: not a Simple Durable Jobs status', { status: 'unknown status' });
  const terms: Array<[string, unknown]> = [['status = ?', status]];
  if (opts.queue !== undefined) terms.push(['queue = ?', opts.queue]);
  if (opts.finished?.since !== undefined) terms.push(['completed_at >= ?', new Date(opts.finished.since)]);
  if (opts.finished?.until !== undefined) terms.push(['completed_at < ?', new Date(opts.finished.until)]);
  // Created: a range of the list's own index key (idx_jobs_status_created).
  if (opts.created?.since !== undefined) terms.push(['created_at >= ?', new Date(opts.created.since)]);
  if (opts.created?.until !== undefined) terms.push(['created_at < ?', new Date(opts.created.until)]);
  const where = terms.map((t) => t[0]).join(' AND ');
  const params = terms.map((t) => t[1]);
  return { where, params, key: 'created_at', tie: 'ASC', limit: opts.limit, cursor: opts.cursor };
}

/** Jobs in one SDJ status (optionally one queue), newest first. */
export async function listJobs(
  db: SdjDb,
  opts: { status: SdjStatus; queue?: string; finished?: TimeRange; created?: TimeRange; limit?: number; cursor?: string | null },
): Promise<SdjPage<SdjJobSummary>> {
  return keysetPage(db, statusPage(opts.status, opts));
}

/** Dead letters (`dead_lettered_at` set), most recent first, as the library's `ListDeadLettered`
 *  orders them; `since` (inclusive) and `until` (exclusive, ISO) bound the same index. */
export async function listDeadLetters(
  db: SdjDb,
  opts: { queue?: string; since?: string; until?: string; limit?: number; cursor?: string | null } = {},
): Promise<SdjPage<SdjJobSummary>> {
  const terms: Array<[string, unknown]> = [];
  if (opts.queue !== undefined) terms.push(['queue = ?', opts.queue]);
  if (opts.since !== undefined) terms.push(['dead_lettered_at >= ?', new Date(opts.since)]);
  if (opts.until !== undefined) terms.push(['dead_lettered_at < ?', new Date(opts.until)]);
  const where = ['1 = 1', ...terms.map((t) => t[0])].join(' AND ');
  const params = terms.map((t) => t[1]);
  return keysetPage(db, { where, params, key: 'dead_lettered_at', tie: 'DESC', limit: opts.limit, cursor: opts.cursor });
}

export function requireId(id: string): string {
  if (typeof id !== 'string' || !UUID.test(id)) throw new ConsoleError('InvalidInput', 'id: not a UUID', { id: 'not a UUID' });
  return id.toLowerCase();
}
