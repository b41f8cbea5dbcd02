import 'server-only';
import type Database from 'better-sqlite3';
import type { Page, TaskDetail, TaskListQuery, TaskSummary } from '@/lib/brokers/schema';
import { potatoqState, type PotatoqState } from '../model';
import { decodePayload } from '@/lib/potatoq';
import { decodeCursor, encodeCursor, type KeyValue } from '@/lib/brokers/cursor';
import { isoFromEpoch, mapResult, preview, rawParts, str, type Stored } from '../mappers';
import { containsPattern, PAYLOAD_FOR_PREVIEW, Where } from './sql';
import { messageView } from '@/lib/potatoq/view';
import { IX, readyQueueNames } from './reads-overview';
import { rangeMs } from '@/lib/brokers/time-range';

const STATE_NAMES: Record<number, PotatoqState> = { 0: 'scheduled', 1: 'ready', 2: 'running' };

interface JobRow {
  seq: bigint;
  id: string;
  queue: string;
  task: string;
  state: bigint;
  priority: KeyValue;
  run_at: number | null;
  created_at: number | null;
  claimed_at: number | null;
  worker: string | null;
  pid: bigint | null;
  deliveries: bigint | null;
  payload: Stored | null;
  size: bigint;
}

// Claim order per state (potatoq claims ready rows by `priority DESC, seq`) and the index each
// list walks. The state is a literal in the SQL text so potatoq's partial indexes apply; the
// cursor conditions start with a range on the index's first key.
const ORDER: Record<PotatoqState, { state: number; index: string; order: string; after: string; key: (r: JobRow) => KeyValue[] }> = {
  ready: {
    state: 1,
    index: IX.ready,
    order: 'priority DESC, seq',
    after: '(priority < ? OR (priority = ? AND seq > ?))',
    key: (r) => [r.priority, r.priority, r.seq],
  },
  scheduled: {
    state: 0,
    index: IX.scheduled,
    order: 'run_at, seq',
    after: 'run_at >= ? AND (run_at > ? OR seq > ?)',
    key: (r) => [r.run_at, r.run_at, r.seq],
  },
  // No index on claimed_at: the running rows (bounded by the workers' concurrency) are sorted.
  running: {
    state: 2,
    index: IX.running,
    order: 'coalesce(claimed_at, 0), seq',
    after: '(coalesce(claimed_at, 0) > ? OR (coalesce(claimed_at, 0) = ? AND seq > ?))',
    key: (r) => [r.claimed_at ?? 0, r.claimed_at ?? 0, r.seq],
  },
};

function summary(r: JobRow): TaskSummary {
  return {
    id: r.id,
    queue: r.queue,
    task: r.task,
    state: STATE_NAMES[Number(r.state)] ?? 'ready',
    priority: str(r.priority) ?? '0',
    runAt: isoFromEpoch(r.run_at),
    createdAt: isoFromEpoch(r.created_at),
    claimedAt: isoFromEpoch(r.claimed_at),
    worker: r.worker,
    pid: str(r.pid),
    deliveries: str(r.deliveries) ?? '0',
    preview: preview(r.payload, Number(r.size)),
    seq: String(r.seq),
  };
}

const COLUMNS = 'seq, id, queue, task, state, priority, run_at, created_at, claimed_at, worker, pid, deliveries';

/**
 * Keyset pages in claim order on potatoq's partial indexes. Ready across queues merges one
 * short scan of `jobs_ready` per queue (found by a loose index scan); a text search looks only
 * at the newest `window` rows (a rowid range), so no page ever reads a whole table. A time
 * range (`since`/`until`, on when each task was enqueued) filters the rows the walk visits.
 */
export function listTasks(db: Database.Database, q: TaskListQuery, window: number): Page<TaskSummary> {
  const spec = ORDER[potatoqState(q.state)];
  const scope = `tasks:${q.state}`;
  const after = decodeCursor(scope, q.cursor, 3);
  const limit = q.limit + 1;
  const where = new Where().add(`state = ${spec.state}`).addIf(q.task, 'task = ?', q.task).addIf(q.id, 'instr(id, ?) = 1', q.id);
  // A time range bounds created_at (REAL epoch seconds), which no index holds: checked on the
  // rows each list's index walk visits, like a task filter.
  const range = rangeMs(q);
  if (range.from !== null) where.add('created_at >= ?', range.from / 1000);
  if (range.to !== null) where.add('created_at < ?', range.to / 1000);
  let rows: JobRow[];
  if (q.q) {
    where.addIf(q.queue, 'queue = ?', q.queue).add(`payload LIKE ? ESCAPE '\\'`, containsPattern(q.q));
    where.add('seq > (SELECT coalesce(max(seq), 0) FROM potatoq_jobs) - ?', window);
    if (after) where.add(spec.after, ...after);
    rows = db
      .prepare(`SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM potatoq_jobs NOT INDEXED ${where} ORDER BY ${spec.order} LIMIT ?`)
      .safeIntegers(true)
      .all(...where.params, limit) as JobRow[];
  } else if (q.state === 'ready') rows = readyPage(db, q, where, after, limit);
  else {
    where.addIf(q.queue, 'queue = ?', q.queue);
    if (after) where.add(spec.after, ...after);
    rows = db
      .prepare(
        `SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM potatoq_jobs INDEXED BY ${spec.index} ${where} ORDER BY ${spec.order} LIMIT ?`,
      )
      .safeIntegers(true)
      .all(...where.params, limit) as JobRow[];
  }
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map(summary), nextCursor: more && last ? encodeCursor(scope, spec.key(last)) : null };
}

type Key = { priority: bigint; seq: bigint };

/** Keys from each queue's `jobs_ready` scan (two ranges after a cursor), merged; then the page's rows. */
function readyPage(db: Database.Database, q: TaskListQuery, w: Where, after: KeyValue[] | null, limit: number): JobRow[] {
  const queues = q.queue ? [q.queue] : readyQueueNames(db);
  const scan = (cond: string, order: string) =>
    db
      .prepare(
        `SELECT priority, seq FROM potatoq_jobs INDEXED BY ${IX.ready} ${w} AND queue = ? AND ${cond} ORDER BY ${order} LIMIT ${limit}`,
      )
      .safeIntegers(true);
  const keys: Key[] = [];
  if (after) {
    const [pr, , seq] = after;
    const same = scan('priority = ? AND seq > ?', 'seq');
    const lower = scan('priority < ?', 'priority DESC, seq');
    for (const name of queues) {
      keys.push(...(same.all(...w.params, name, pr, seq) as Key[]), ...(lower.all(...w.params, name, pr) as Key[]));
    }
  } else {
    const top = scan('1', 'priority DESC, seq');
    for (const name of queues) keys.push(...(top.all(...w.params, name) as Key[]));
  }
  keys.sort((a, b) => (a.priority !== b.priority ? (a.priority > b.priority ? -1 : 1) : a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const seqs = keys.slice(0, limit).map((k) => k.seq);
  if (!seqs.length) return [];
  return db
    .prepare(
      `SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM potatoq_jobs WHERE seq IN (${seqs.map(() => '?').join(',')}) ORDER BY priority DESC, seq`,
    )
    .safeIntegers(true)
    .all(...seqs) as JobRow[];
}

export function getTask(db: Database.Database, id: string): TaskDetail | null {
  const row = db
    .prepare(`SELECT ${COLUMNS}, payload, length(CAST(payload AS BLOB)) AS size FROM potatoq_jobs WHERE id = ?`)
    .safeIntegers(true)
    .get(id) as (JobRow & { payload: Stored }) | undefined;
  if (!row) return null;
  const full = row.payload;
  const base = summary({ ...row, payload: full.length <= 65536 ? full : null });
  return { ...base, payload: messageView(decodePayload(full)), ...rawParts(full), result: readResult(db, id) };
}

export function readResult(db: Database.Database, id: string) {
  const r = db.prepare('SELECT state, payload, expires_at FROM potatoq_results WHERE id = ?').get(id) as
    { state: string; payload: string; expires_at: number | null } | undefined;
  return r ? mapResult(id, r.state, r.payload, r.expires_at) : null;
}
