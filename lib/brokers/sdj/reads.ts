import 'server-only';
import type {
  DeadDetail,
  DeadFilter,
  DeadListQuery,
  DeadSummary,
  Page,
  PayloadPreview,
  ResultListQuery,
  ResultRecordDto,
  ResultSummary,
  TaskDetail,
  TaskListQuery,
  TaskSummary,
} from '@/lib/brokers/schema';
import { ConsoleError } from '@/lib/brokers/errors';
import { foldSightings } from '@/lib/brokers/task-queues';
import { SDJ_STATUSES } from './model';
import { sdjState, type SdjState } from './broker-model';
import { UUID, type SdjDb } from './db';
import { getJob, type SdjJobDetail } from './detail';
import { listDeadLetters, listJobs, type SdjJobSummary } from './jobs';
import { previewOf } from './message';
import { argsHeads, cursorAt, walk, type ReadPage, type Walked } from './pages';
import { claimCursorAt, listPendingByClaim, listRunningByStart, startCursorAt } from './claim-order';
import { letterFingerprint, toDeadDetail, toDeadSummary, toResult, toTaskDetail, toTaskSummary } from './views';
import { mergeFinished } from './results';

// The adapter's reads: the store's keyset lists, filtered where the contract asks for what no
// index holds (pages.ts), with each listed row's `args` preview read by primary key.

const created = (j: SdjJobSummary) => cursorAt(j.createdAt, j.id);
const died = (j: SdjJobSummary) => cursorAt(j.deadLetteredAt, j.id);

async function previews(db: SdjDb, rows: SdjJobSummary[]): Promise<Map<string, PayloadPreview>> {
  const heads = await argsHeads(
    db,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, previewOf(heads.get(r.id)?.head ?? null, heads.get(r.id)?.size ?? 0)]));
}

/** Keeps the rows whose `args` hold `needle` (case-insensitive, in the first HEAD_BYTES). */
async function argsHold(db: SdjDb, rows: SdjJobSummary[], needle: string): Promise<Set<string>> {
  const heads = await argsHeads(
    db,
    rows.map((r) => r.id),
  );
  const hit = new Set<string>();
  for (const [id, h] of heads) if (h.head && h.head.toString('utf8').toLowerCase().includes(needle)) hit.add(id);
  return hit;
}

/** How a state is listed: pending in claim order, running by claim time (oldest first), the
 *  others newest first (the store's `idx_jobs_status_created`); each read in SQL bounded by the
 *  queue and the range of created times (`since`/`until`). */
function orderOf(db: SdjDb, status: SdjState, q: TaskListQuery): [ReadPage, (j: SdjJobSummary) => string | null] {
  const scope = { queue: q.queue, created: { since: q.since, until: q.until } };
  if (status === 'pending') return [(cursor, limit) => listPendingByClaim(db, { ...scope, limit, cursor }), claimCursorAt];
  if (status === 'running') return [(cursor, limit) => listRunningByStart(db, { ...scope, limit, cursor }), startCursorAt];
  return [(cursor, limit) => listJobs(db, { status, ...scope, limit, cursor }), created];
}

const windowOf = (w: Walked) => (w.searchedNewest ? { searchedNewest: w.searchedNewest } : {});

export async function listTasks(db: SdjDb, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const status = sdjState(q.state);
  const needle = q.q?.toLowerCase();
  const id = q.id?.toLowerCase();
  const filtered = q.task !== undefined || id !== undefined || needle !== undefined;
  const keep = filtered
    ? async (rows: SdjJobSummary[]) => {
        const pre = rows.filter((r) => (q.task === undefined || r.type === q.task) && (id === undefined || r.id.startsWith(id)));
        const hit = needle === undefined ? null : await argsHold(db, pre, needle);
        return rows.map((r) => pre.includes(r) && (hit === null || hit.has(r.id)));
      }
    : undefined;
  const w = await walk(...orderOf(db, status, q), q.limit, q.cursor ?? null, keep);
  const pv = await previews(db, w.rows);
  return { items: w.rows.map((r) => toTaskSummary(r, pv.get(r.id))), nextCursor: w.next, ...windowOf(w) };
}

/** A job by id, or null (an id that is no UUID is no SDJ job). */
export async function readJob(db: SdjDb, id: string): Promise<SdjJobDetail | null> {
  return UUID.test(id) ? getJob(db, id) : null;
}

async function previewOfJob(db: SdjDb, j: SdjJobDetail): Promise<PayloadPreview> {
  return (await previews(db, [j])).get(j.id) ?? { kind: 'native', text: '' };
}

/** A job in one of the declared states; a dead letter is `getDead`'s. */
export async function getTask(db: SdjDb, id: string): Promise<TaskDetail | null> {
  const j = await readJob(db, id);
  if (!j || j.deadLetteredAt) return null;
  return toTaskDetail(j, await previewOfJob(db, j));
}

/** Which dead letters of a store page match the list's filter; undefined when nothing filters. */
function deadFilter(db: SdjDb, q: DeadFilter): ((rows: SdjJobSummary[]) => Promise<boolean[]>) | undefined {
  const needle = q.q?.toLowerCase();
  const id = q.id?.toLowerCase();
  const inArgs = needle !== undefined && q.qIn !== 'reason';
  if (q.task === undefined && id === undefined && needle === undefined && q.group === undefined) return undefined;
  return async (rows) => {
    const pre = rows.filter(
      (r) =>
        (q.task === undefined || r.type === q.task) &&
        (id === undefined || r.id.startsWith(id)) &&
        (q.group === undefined || letterFingerprint(r).key === q.group),
    );
    const inReason = (r: SdjJobSummary) => `${r.deadLetterReason ?? ''}\n${r.lastError ?? ''}`.toLowerCase().includes(needle!);
    const hit = inArgs ? await argsHold(db, pre, needle) : null;
    return rows.map((r) => pre.includes(r) && (needle === undefined || inReason(r) || (hit?.has(r.id) ?? false)));
  };
}

export async function listDead(db: SdjDb, q: DeadListQuery): Promise<Page<DeadSummary>> {
  const keep = deadFilter(db, q);
  const w = await walk(
    (cursor, limit) => listDeadLetters(db, { queue: q.queue, since: q.since, until: q.until, limit, cursor }),
    died,
    q.limit,
    q.cursor ?? null,
    keep,
  );
  const pv = await previews(db, w.rows);
  return { items: w.rows.map((r) => toDeadSummary(r, pv.get(r.id))), nextCursor: w.next, ...windowOf(w) };
}

/** Every matching letter's id, newest first, at most `cap`: one pass over the dead-letter index
 *  (a bulk job's snapshot, where the list's filtered pages stop at their window). */
export async function deadIds(db: SdjDb, q: DeadFilter, cap: number): Promise<{ ids: string[]; capped: boolean }> {
  const keep = deadFilter(db, q);
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await listDeadLetters(db, { queue: q.queue, since: q.since, until: q.until, limit: 500, cursor });
    const kept = keep ? await keep(page.items) : page.items.map(() => true);
    for (let i = 0; i < page.items.length; i++) {
      if (!kept[i]) continue;
      if (ids.length === cap) return { ids, capped: true };
      ids.push(page.items[i]!.id);
    }
    if (!page.next) return { ids, capped: false };
    cursor = page.next;
  }
}

export async function getDead(db: SdjDb, id: string): Promise<DeadDetail | null> {
  const j = await readJob(db, id);
  if (!j || !j.deadLetteredAt) return null;
  return toDeadDetail(j, await previewOfJob(db, j));
}

/** A finished job as a result record; null while it is not finished (or there is none). */
export async function getResult(db: SdjDb, id: string): Promise<ResultRecordDto | null> {
  const j = await readJob(db, id);
  return j && ['completed', 'failed', 'cancelled'].includes(j.status) ? toResult(j) : null;
}

export async function listResults(db: SdjDb, q: ResultListQuery): Promise<Page<ResultSummary>> {
  const status = q.status?.toLowerCase();
  if (status !== undefined && !['completed', 'failed', 'cancelled'].includes(status))
    throw new ConsoleError('InvalidInput', 'status: a finished job is COMPLETED, FAILED or CANCELLED', { status: 'unknown status' });
  const page = await mergeFinished(
    db,
    status ? [status as 'completed'] : ['completed', 'failed', 'cancelled'],
    q.limit,
    q.cursor ?? null,
    q,
  );
  return {
    items: page.rows.map((j) => ({ id: j.id, status: j.status.toUpperCase(), name: j.type, dateDone: j.completedAt, expiresAt: null })),
    nextCursor: page.next,
  };
}

/** Distinct job types, read off `idx_jobs_type` one type at a time (a skip scan), at most 500. */
export async function taskNames(db: SdjDb): Promise<string[]> {
  const rows = await db.all(
    `WITH RECURSIVE t (type, n) AS (
       SELECT MIN(type), 1 FROM jobs
       UNION ALL
       SELECT (SELECT MIN(type) FROM jobs WHERE type > t.type), n + 1 FROM t WHERE t.type IS NOT NULL AND n < 500
     ) SELECT type FROM t WHERE type IS NOT NULL`,
  );
  return [...new Set(rows.map((r) => String(r.type)))].sort();
}

/** Rows per status read for where each task was seen. */
export const SIGHTINGS = 500;

/** The queues each job type was seen in, most-seen first: the newest SIGHTINGS jobs of each
 *  status on `idx_jobs_status_created` (where the library's producers put each type lately). */
export async function taskQueues(db: SdjDb): Promise<Record<string, string[]>> {
  const rows = await db.all(
    SDJ_STATUSES.map(
      () => `(SELECT type, queue FROM jobs WHERE status = ? AND created_at IS NOT NULL ORDER BY created_at DESC LIMIT ${SIGHTINGS})`,
    ).join(' UNION ALL '),
    [...SDJ_STATUSES],
  );
  return foldSightings(rows.map((r) => ({ task: String(r.type), queue: String(r.queue) })));
}
