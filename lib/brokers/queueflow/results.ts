import 'server-only';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import type { Page, ResultListQuery, ResultSummary } from '@/lib/brokers/schema';
import type { QfClient } from './client';
import { afterJob, jobPager } from './jobs';
import { QF_FINISHED } from './model';
import { collectRows, SERVER_PAGE, unwrapCursor, wrapCursor, type ServerPage } from './pages';
import { micros, type QfJob } from './wire';

// The console's results on QueueFlow are its finished jobs. Its job list filters on one status
// at a time, so without a status the page merges the three finished lists (completed, failed,
// cancelled), newest created first: the order QueueFlow lists in. A status shows that one list.

/** A lane's place: '' before its first row, a server cursor after a row, null when it is done. */
type LaneAt = string | null;

const ALL_SCOPE = 'qf-results:finished';

/** Newest first, as QueueFlow's keyset orders: created_at, then id, both descending. */
export function newerFirst(a: QfJob, b: QfJob): number {
  const ta = micros(a.created_at) ?? 0n;
  const tb = micros(b.created_at) ?? 0n;
  if (ta !== tb) return ta > tb ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

/**
 * The newest `want` rows of several newest-first lists merged, and where each list goes on
 * from (a list none of whose rows made the page stays where it was). One call per list that
 * is not done; null `next` once every list is done. `want` is at most SERVER_PAGE, so each list
 * that has more gave `want` rows: its rows not read yet are older than the page's last.
 */
export async function mergeNewest(
  lanes: Array<(cursor: string | undefined, limit: number) => Promise<ServerPage<QfJob>>>,
  at: LaneAt[],
  wanted: number,
): Promise<{ rows: QfJob[]; next: LaneAt[] | null }> {
  const want = Math.min(wanted, SERVER_PAGE);
  const pages = await Promise.all(lanes.map((fetch, i) => (at[i] === null ? null : fetch(at[i] || undefined, want))));
  const tagged = pages.flatMap((p, lane) => (p ? p.rows.map((row) => ({ row, lane })) : []));
  const rows = tagged.sort((a, b) => newerFirst(a.row, b.row)).slice(0, want);
  const next = pages.map((p, lane): LaneAt => {
    if (!p) return null;
    const taken = rows.filter((r) => r.lane === lane);
    if (taken.length === p.rows.length) return p.hasMore && p.next ? p.next : null;
    return taken.length ? (afterJob(taken.at(-1)!.row) ?? null) : (at[lane] ?? '');
  });
  return { rows: rows.map((r) => r.row), next: next.every((n) => n === null) ? null : next };
}

const toResultSummary = (j: QfJob): ResultSummary => ({
  id: j.id,
  status: j.status.toUpperCase(),
  name: j.task_name,
  dateDone: j.completed_at ?? null,
  expiresAt: null,
});

/** Finished jobs, newest first: of one status when asked, else of all three. */
export async function listResults(client: QfClient, q: ResultListQuery): Promise<Page<ResultSummary>> {
  const asked = q.status?.toLowerCase();
  if (asked) {
    if (!(QF_FINISHED as readonly string[]).includes(asked)) return { items: [], nextCursor: null };
    const scope = `qf-results:${asked}`;
    const got = await collectRows(jobPager(client, { status: asked }), afterJob, q.limit, unwrapCursor(scope, q.cursor));
    return { items: got.rows.map(toResultSummary), nextCursor: wrapCursor(scope, got.next) };
  }
  const start = decodeCursor(ALL_SCOPE, q.cursor, QF_FINISHED.length);
  const at: LaneAt[] = start ? start.map((v) => (typeof v === 'string' ? v : null)) : QF_FINISHED.map(() => '');
  const got = await mergeNewest(
    QF_FINISHED.map((status) => jobPager(client, { status })),
    at,
    q.limit,
  );
  return { items: got.rows.map(toResultSummary), nextCursor: got.next ? encodeCursor(ALL_SCOPE, got.next) : null };
}
