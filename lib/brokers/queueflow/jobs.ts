import 'server-only';
import { isConsoleError } from '@/lib/brokers/errors';
import type { Page, ResultRecordDto, TaskDetail, TaskListQuery, TaskSummary } from '@/lib/brokers/schema';
import { isDenied, type QfClient } from './client';
import { jsonToTyped } from '@/lib/brokers/json-typed';
import { jobView, payloadText, previewOf } from './message';
import { QF_FINISHED, QF_STATUSES, qfState, stateOf } from './model';
import { collectRows, unwrapCursor, wrapCursor, type ServerPage } from './pages';
import { cursorAfter, parseWire, ZJob, ZJobPage, type QfJob } from './wire';

/** How many of the newest jobs a filter the server lacks (id prefix, payload text) looks at. */
export const SEARCH_WINDOW = 1000;

/** The job list's pages, filtered on the server by status, queue, task and when each job was
 *  created (`created_after`/`created_before`: a time range's since and until). */
export function jobPager(
  client: QfClient,
  filter: { status: string; queue?: string; task?: string; since?: string; until?: string; ascending?: boolean },
) {
  return async (cursor: string | undefined, limit: number): Promise<ServerPage<QfJob>> => {
    const order = filter.ascending ? { order_by: 'created_at ASC' } : {};
    const raw = await client.get('/api/v1/jobs', {
      status: filter.status,
      queue: filter.queue,
      task_name: filter.task,
      created_after: filter.since,
      created_before: filter.until,
      limit,
      cursor,
      ...order,
    });
    const page = parseWire(ZJobPage, raw, 'the job list');
    return { rows: page.jobs, hasMore: page.has_more, next: page.next_cursor ?? null };
  };
}

export const afterJob = (j: QfJob) => cursorAfter(j.created_at, j.id);

export function toSummary(j: QfJob): TaskSummary {
  const priority = j.config?.priority;
  return {
    id: j.id,
    queue: j.queue_name,
    task: j.task_name,
    state: stateOf(j),
    priority: typeof priority === 'number' ? String(priority) : '0',
    runAt: j.status === 'running' ? null : (j.scheduled_at ?? null),
    createdAt: j.created_at,
    claimedAt: j.status === 'running' ? (j.started_at ?? null) : null,
    // QueueFlow's remote workers are anonymous lease holders: the API does not say which one.
    worker: null,
    pid: null,
    deliveries: String(j.delivery_count),
    preview: previewOf(j.payload),
    seq: j.id,
  };
}

export async function listTasks(client: QfClient, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const state = qfState(q.state);
  // Scheduled jobs are QueueFlow's pending ones not due yet: its list has no such filter, so
  // pending and scheduled are both read from the pending list and told apart by run time.
  const status = state === 'scheduled' ? 'pending' : state;
  const scope = `qf-jobs:${state}`;
  const start = unwrapCursor(scope, q.cursor);
  const needle = q.q?.toLowerCase();
  const now = Date.now();
  const split = status === 'pending';
  const filter =
    q.id || needle || split
      ? {
          window: SEARCH_WINDOW,
          keep: (j: QfJob) =>
            (!split || stateOf(j, now) === state) &&
            (!q.id || j.id.startsWith(q.id)) &&
            (!needle || payloadText(j).toLowerCase().includes(needle)),
        }
      : undefined;
  const got = await collectRows(
    jobPager(client, { status, queue: q.queue, task: q.task, since: q.since, until: q.until }),
    afterJob,
    q.limit,
    start,
    filter,
  );
  return {
    items: got.rows.map(toSummary),
    nextCursor: wrapCursor(scope, got.next),
    ...(got.searchedNewest ? { searchedNewest: got.searchedNewest } : {}),
  };
}

/** A job by id; null when QueueFlow has none visible to this tenant (404, 403, not a job id). */
export async function readJob(client: QfClient, id: string): Promise<QfJob | null> {
  try {
    return parseWire(ZJob, await client.get(`/api/v1/jobs/${encodeURIComponent(id)}`), 'a job');
  } catch (e) {
    if (isDenied(e) || (isConsoleError(e) && (e.code === 'NotFound' || e.code === 'InvalidInput'))) return null;
    throw e;
  }
}

export async function getTask(client: QfClient, id: string): Promise<TaskDetail | null> {
  const j = await readJob(client, id);
  if (!j || !(QF_STATUSES as readonly string[]).includes(j.status)) return null;
  const raw = payloadText(j);
  return { ...toSummary(j), payload: jobView(j), raw, rawSize: Buffer.byteLength(raw), rawTruncated: false, result: null };
}

export function toResult(j: QfJob): ResultRecordDto {
  return {
    id: j.id,
    status: j.status.toUpperCase(),
    record: j.result === undefined ? null : jsonToTyped(j.result),
    excType: null,
    excMessage: j.error_message ?? null,
    traceback: null,
    dateDone: j.completed_at ?? null,
    expiresAt: null,
    worker: null,
    name: j.task_name,
    raw: JSON.stringify(j),
  };
}

/** A finished job (completed, failed, cancelled) as a result record; null while it is not finished. */
export async function getResult(client: QfClient, id: string): Promise<ResultRecordDto | null> {
  const j = await readJob(client, id);
  return j && (QF_FINISHED as readonly string[]).includes(j.status) ? toResult(j) : null;
}
