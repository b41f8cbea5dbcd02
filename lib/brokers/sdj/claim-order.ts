import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { idParam, idText, isoOf, UUID, type SdjDb } from './db';
import { MAX_PAGE, SUMMARY_COLUMNS, toSummary, type SdjJobSummary, type SdjPage } from './jobs';
import type { TimeRange } from '@/lib/brokers/time-range';

interface ClaimOpts {
  queue?: string;
  /** When created (enqueued): `since` inclusive, `until` exclusive (ISO). */
  created?: TimeRange;
  limit: number;
  cursor?: string | null;
}

/** The terms of the queue and the created range: no index of these lists holds created_at, so
 *  the range is checked on the rows the list's own walk visits. */
function scopeTerms(o: ClaimOpts): { sql: string; params: unknown[] } {
  const terms: Array<[string, unknown]> = [];
  if (o.queue !== undefined) terms.push(['queue = ?', o.queue]);
  if (o.created?.since !== undefined) terms.push(['created_at >= ?', new Date(o.created.since)]);
  if (o.created?.until !== undefined) terms.push(['created_at < ?', new Date(o.created.until)]);
  return { sql: terms.map((t) => ` AND ${t[0]}`).join(''), params: terms.map((t) => t[1]) };
}

// Pending jobs in the order a worker claims them (the library's dequeue: `ORDER BY priority DESC,
// COALESCE(run_at, created_at), id`), as keyset pages. The position after a row is its priority,
// due time and id; the next page is the rest of that priority after the position, then the lower
// priorities, each an index range on PostgreSQL's `idx_jobs_dequeue_eligible (priority DESC,
// COALESCE(run_at, created_at), queue) WHERE status = 'pending'`, so any page costs page 1's
// reads. MySQL's due time is the generated `dq_eligible_at` (the same COALESCE while pending);
// no MySQL index of the library holds pending rows by priority and then due time across
// `dq_ready`, so MySQL sorts the pending rows of the range (bounded by them, not by the depth).

interface ClaimCursor {
  p: number;
  at: string;
  id: string;
}

const invalid = () =>
  new ConsoleError('InvalidInput', 'cursor: not a cursor this list gave out', { cursor: 'not a cursor this list gave out' });
const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;

export const encodeClaimCursor = (c: ClaimCursor) => Buffer.from(JSON.stringify([c.p, c.at, c.id]), 'utf8').toString('base64url');

export function decodeClaimCursor(s: string | null | undefined): ClaimCursor | null {
  if (!s) return null;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(v) ||
    v.length !== 3 ||
    !Number.isInteger(v[0]) ||
    typeof v[1] !== 'string' ||
    !TS.test(v[1]) ||
    typeof v[2] !== 'string' ||
    !UUID.test(v[2])
  )
    throw invalid();
  return { p: v[0] as number, at: v[1], id: v[2] };
}

/** The database text of a due time, from its ISO form. */
const dbTime = (iso: string) => iso.replace('T', ' ').replace(/Z$/, '');

/** The SQL of one claim-order page (exported so tests can count what the database reads for it). */
export function claimPageSql(db: SdjDb, opts: ClaimOpts): { sql: string; params: unknown[]; limit: number } {
  const limit = opts.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw new ConsoleError('InvalidInput', `limit: must be 1-${MAX_PAGE}`, { limit: `must be 1-${MAX_PAGE}` });
  const due = db.dialect === 'postgres' ? 'COALESCE(run_at, created_at)' : 'dq_eligible_at';
  const { sql: queue, params: qp } = scopeTerms(opts);
  // A row without a due time (created_at is nullable; every writer sets it) holds no position: not listed, still counted.
  const select = `SELECT ${SUMMARY_COLUMNS}, ${due} AS due FROM jobs WHERE status = 'pending' AND ${due} IS NOT NULL${queue}`;
  const order = `ORDER BY priority DESC, ${due}, id LIMIT ${limit + 1}`;
  const at = decodeClaimCursor(opts.cursor);
  if (!at) return { sql: `${select} ${order}`, params: qp, limit };
  const id = idParam(db.dialect, at.id);
  const same = `${select} AND priority = ? AND ${due} >= ? AND (${due} > ? OR id > ?) ORDER BY ${due}, id LIMIT ${limit + 1}`;
  const lower = `${select} AND priority < ? ${order}`;
  return {
    sql: `SELECT * FROM ((${same}) UNION ALL (${lower})) page ORDER BY priority DESC, due, id LIMIT ${limit + 1}`,
    params: [...qp, at.p, at.at, at.at, id, ...qp, at.p],
    limit,
  };
}

export async function listPendingByClaim(db: SdjDb, opts: ClaimOpts): Promise<SdjPage<SdjJobSummary>> {
  const { sql, params, limit } = claimPageSql(db, opts);
  const rows = await db.all(sql, params);
  const items = rows.slice(0, limit).map(toSummary);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  const next = last ? encodeClaimCursor({ p: Number(last.priority), at: dbTime(isoOf(last.due) ?? ''), id: idText(last.id) ?? '' }) : null;
  return { items, next };
}

/** Running jobs by when they were claimed (`started_at`), oldest first, as keyset pages on the
 *  position (started_at, id). Read through `idx_jobs_status_created` and sorted: bounded by the
 *  running jobs (what the workers hold at once), not by the depth of the page. */
export async function listRunningByStart(db: SdjDb, opts: ClaimOpts): Promise<SdjPage<SdjJobSummary>> {
  const limit = opts.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw new ConsoleError('InvalidInput', `limit: must be 1-${MAX_PAGE}`, { limit: `must be 1-${MAX_PAGE}` });
  const at = decodeClaimCursor(opts.cursor);
  const scope = scopeTerms(opts);
  const params: unknown[] = [...scope.params];
  let after = '';
  if (at) {
    after = ' AND (started_at > ? OR (started_at = ? AND id > ?))';
    params.push(at.at, at.at, idParam(db.dialect, at.id));
  }
  const rows = await db.all(
    `SELECT ${SUMMARY_COLUMNS} FROM jobs WHERE status = 'running' AND started_at IS NOT NULL${scope.sql}${after} ORDER BY started_at, id LIMIT ${limit + 1}`,
    params,
  );
  const items = rows.slice(0, limit).map(toSummary);
  const last = items.length < rows.length ? items.at(-1) : undefined;
  return { items, next: last ? startCursorAt(last) : null };
}

/** The position after a running job in claim-time order. */
export function startCursorAt(j: SdjJobSummary): string | null {
  return j.startedAt ? encodeClaimCursor({ p: 0, at: dbTime(j.startedAt), id: j.id }) : null;
}

/** The position after a pending job in claim order (for a filtered walk that stops mid-page). */
export function claimCursorAt(j: SdjJobSummary): string | null {
  const due = j.runAt ?? j.createdAt;
  return due ? encodeClaimCursor({ p: j.priority, at: dbTime(due), id: j.id }) : null;
}
