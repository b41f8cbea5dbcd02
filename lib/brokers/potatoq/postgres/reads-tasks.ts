import 'server-only';
import { decodePayload } from '@/lib/potatoq';
import type { Page, TaskDetail, TaskListQuery, TaskSummary } from '@/lib/brokers/schema';
import { potatoqState, type PotatoqState } from '../model';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { mapResult, preview, rawParts, str } from '../mappers';
import type { PgNames } from './names';
import type { Sql } from './pool';
import { containsPattern, epoch, PAYLOAD_FOR_PREVIEW, PgWhere } from './sql';
import { messageView } from '@/lib/potatoq/view';

const STATE_NAMES: Record<number, PotatoqState> = { 0: 'scheduled', 1: 'ready', 2: 'running' };
const STATE_CODE: Record<PotatoqState, number> = { scheduled: 0, ready: 1, running: 2 };

interface JobRow {
  seq: string;
  id: string;
  queue: string;
  task: string;
  state: number;
  priority: number;
  run_epoch: number | null;
  created_epoch: number | null;
  claimed_epoch: number | null;
  worker: string | null;
  pid: number | null;
  deliveries: number | null;
  payload: string | null;
  size: number;
  run_key: string;
  claim_key: string;
}

const COLUMNS = [
  'seq',
  'id',
  'queue',
  'task',
  'state',
  'priority',
  'worker',
  'pid',
  'deliveries',
  // Aliases differ from the column names: ORDER BY run_at must mean the column (its index).
  epoch('run_at', 'run_epoch'),
  epoch('created_at', 'created_epoch'),
  epoch('claimed_at', 'claimed_epoch'),
  'run_at::text AS run_key',
  `coalesce(claimed_at, '-infinity')::text AS claim_key`,
].join(', ');

function summary(r: JobRow): TaskSummary {
  return {
    id: r.id,
    queue: r.queue,
    task: r.task,
    state: STATE_NAMES[r.state] ?? 'ready',
    priority: String(r.priority),
    runAt: isoOrNull(r.run_epoch),
    createdAt: isoOrNull(r.created_epoch),
    claimedAt: isoOrNull(r.claimed_epoch),
    worker: r.worker,
    pid: str(r.pid),
    deliveries: str(r.deliveries) ?? '0',
    preview: preview(r.payload, Number(r.size)),
    seq: String(r.seq),
  };
}

function isoOrNull(s: number | null): string | null {
  if (s === null || !Number.isFinite(s)) return null;
  return new Date(s * 1000).toISOString();
}

/** Key of the last row per list, in the list's order (see `listTasks`). */
const keyOf: Record<PotatoqState, (r: JobRow) => Array<string | number>> = {
  ready: (r) => [r.priority, r.seq],
  scheduled: (r) => [r.run_key, r.seq],
  running: (r) => [r.claim_key, r.seq],
};

export interface ListOptions {
  /** Text search looks only at this many newest rows (by seq). */
  searchWindow: number;
}

/**
 * Keyset pages in claim order: ready `priority DESC, seq` (per queue on potatoq's
 * `jobs_ready` index; across queues a merge of per-queue index scans), scheduled
 * `run_at, seq`, running `claimed_at, seq`. Every cursor condition is an index range, so
 * page 10,000 costs what page 1 costs. A text search is bounded to the newest rows.
 */
export async function listTasks(sql: Sql, n: PgNames, listed: TaskListQuery, o: ListOptions): Promise<Page<TaskSummary>> {
  const q = { ...listed, state: potatoqState(listed.state) };
  const scope = `pg-tasks:${q.state}`;
  const after = decodeCursor(scope, q.cursor, 2)?.map((v) => (v === null ? null : String(v))) ?? null;
  const state = STATE_CODE[q.state];
  const limit = q.limit + 1;
  let rows: JobRow[];
  if (q.q) rows = await searchTasks(sql, n, q, state, after, limit, o.searchWindow);
  else if (q.state === 'ready') rows = await readyPage(sql, n, q, after, limit);
  else {
    const w = filters(new PgWhere(), q).add(`state = ${state}`);
    const k = q.state === 'scheduled' ? 'run_at' : `coalesce(claimed_at, '-infinity')`;
    if (after) {
      const [t, s] = [w.p(after[0]), w.p(after[1])];
      w.add(`${k} >= ${t}::timestamptz AND (${k} > ${t}::timestamptz OR seq > ${s}::bigint)`);
    }
    // Keys first, columns for the page only: without an index on claimed_at the running
    // list sorts every running row, so the sort must stay narrow.
    rows = await sql<JobRow>(
      `WITH page AS MATERIALIZED (SELECT seq FROM ${n.jobs} ${w} ORDER BY ${k}, seq LIMIT ${limit})
       SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM ${n.jobs} JOIN page USING (seq) ORDER BY ${k}, seq`,
      w.params,
    );
  }
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map(summary),
    nextCursor: more && last ? encodeCursor(scope, keyOf[q.state](last)) : null,
    ...(q.q ? { searchedNewest: o.searchWindow } : {}),
  };
}

/** The list's filters; a time range bounds created_at (when enqueued), which no list's index
 *  holds: it is checked on the rows each index walk visits, like a task filter. */
function filters(w: PgWhere, q: TaskListQuery, alias = ''): PgWhere {
  return w
    .addIf(q.queue, (p) => `${alias}queue = ${p}`)
    .addIf(q.task, (p) => `${alias}task = ${p}`)
    .addIf(q.id, (p) => `starts_with(${alias}id, ${p})`)
    .addIf(q.since, (p) => `${alias}created_at >= ${p}::timestamptz`)
    .addIf(q.until, (p) => `${alias}created_at < ${p}::timestamptz`);
}

async function readyPage(sql: Sql, n: PgNames, q: TaskListQuery, after: Array<string | null> | null, limit: number): Promise<JobRow[]> {
  const params: unknown[] = [];
  const w = new PgWhere(params);
  const queues = q.queue
    ? w.p([q.queue])
    : `(WITH RECURSIVE qs AS (
          (SELECT queue FROM ${n.jobs} WHERE state = 1 ORDER BY queue LIMIT 1)
          UNION ALL
          SELECT (SELECT j.queue FROM ${n.jobs} j WHERE j.state = 1 AND j.queue > qs.queue ORDER BY j.queue LIMIT 1) FROM qs WHERE qs.queue IS NOT NULL)
        SELECT array_agg(queue) FROM qs WHERE queue IS NOT NULL)`;
  const extra = filters(new PgWhere(params), { ...q, queue: undefined })
    .toString()
    .replace(/^WHERE /, ' AND ');
  // Keys only in the per-queue scans (index-only on jobs_ready), columns for the page only.
  const branch = (cond: string, order: string) =>
    `(SELECT priority, seq FROM ${n.jobs} WHERE state = 1 AND queue = qn.queue${extra} AND ${cond} ORDER BY ${order} LIMIT ${limit})`;
  let inner: string;
  if (after) {
    const [pr, s] = [w.p(after[0]), w.p(after[1])];
    inner = `${branch(`priority = ${pr}::int AND seq > ${s}::bigint`, 'seq')} UNION ALL ${branch(`priority < ${pr}::int`, 'priority DESC, seq')}`;
  } else inner = branch('true', 'priority DESC, seq');
  return sql<JobRow>(
    `WITH page AS MATERIALIZED (
       SELECT t.priority AS pk, t.seq FROM unnest(${queues}::text[]) AS qn(queue) CROSS JOIN LATERAL (${inner}) t ORDER BY t.priority DESC, t.seq LIMIT ${limit})
     SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM ${n.jobs} JOIN page USING (seq) ORDER BY page.pk DESC, seq`,
    params,
  );
}

async function searchTasks(
  sql: Sql,
  n: PgNames,
  q: TaskListQuery,
  state: number,
  after: Array<string | null> | null,
  limit: number,
  window: number,
) {
  const w = new PgWhere();
  const pat = w.p(containsPattern(q.q!));
  const win = w.p(window);
  filters(w, q, 'j.').add(`j.state = ${state}`);
  const order =
    q.state === 'ready'
      ? 'j.priority DESC, j.seq'
      : q.state === 'scheduled'
        ? 'j.run_at, j.seq'
        : `coalesce(j.claimed_at, '-infinity'), j.seq`;
  if (after) {
    const [a, s] = [w.p(after[0]), w.p(after[1])];
    if (q.state === 'ready') w.add(`(j.priority < ${a}::int OR (j.priority = ${a}::int AND j.seq > ${s}::bigint))`);
    else {
      const k = q.state === 'scheduled' ? 'j.run_at' : `coalesce(j.claimed_at, '-infinity')`;
      w.add(`(${k} > ${a}::timestamptz OR (${k} = ${a}::timestamptz AND j.seq > ${s}::bigint))`);
    }
  }
  // The window is a primary-key range: at most `window` rows are ever read per page.
  return sql<JobRow>(
    `WITH hit AS MATERIALIZED (
       SELECT seq FROM ${n.jobs} WHERE seq > (SELECT coalesce(max(seq), 0) FROM ${n.jobs}) - ${win}::bigint AND payload ILIKE ${pat})
     SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW}
     FROM ${n.jobs} j JOIN hit USING (seq) ${w} ORDER BY ${order} LIMIT ${limit}`,
    w.params,
  );
}

export async function getTask(sql: Sql, n: PgNames, id: string): Promise<TaskDetail | null> {
  const [row] = await sql<JobRow & { payload: string }>(
    `SELECT ${COLUMNS}, payload, octet_length(payload) AS size FROM ${n.jobs} WHERE id = $1`,
    [id],
  );
  if (!row) return null;
  const full = row.payload;
  const base = summary({ ...row, payload: full.length <= 65536 ? full : null });
  return { ...base, payload: messageView(decodePayload(full)), ...rawParts(full), result: await readResult(sql, n, id) };
}

export async function readResult(sql: Sql, n: PgNames, id: string) {
  const [r] = await sql<{ state: string; payload: string; expires_epoch: number | null }>(
    `SELECT state, payload, ${epoch('expires_at', 'expires_epoch')} FROM ${n.results} WHERE id = $1`,
    [id],
  );
  return r ? mapResult(id, r.state, r.payload, r.expires_epoch) : null;
}
