import 'server-only';
import type Database from 'better-sqlite3';
import type { Page, TaskDetail, TaskListQuery, TaskSummary } from '@/lib/brokers/schema';
import { potatoqState, type PotatoqState } from '../model';
import { decodePayload } from '@/lib/potatoq';
import { decodeCursor, encodeCursor, type KeyValue } from '@/lib/brokers/cursor';
import { isoFromEpoch, mapResult, preview, rawParts, str, type Stored } from '../mappers';
import { containsPattern, PAYLOAD_FOR_PREVIEW, Where } from './sql';
import { messageView } from '../message';

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

// Claim order per state (potatoq claims ready rows by `priority DESC, seq`). The state is a
// literal in the SQL text so SQLite can use potatoq's partial indexes.
const ORDER: Record<PotatoqState, { state: number; order: string; after: string; key: (r: JobRow) => KeyValue[] }> = {
  ready: {
    state: 1,
    order: 'priority DESC, seq',
    after: '(priority < ? OR (priority = ? AND seq > ?))',
    key: (r) => [r.priority, r.priority, r.seq],
  },
  scheduled: {
    state: 0,
    order: 'run_at, seq',
    after: '(run_at > ? OR (run_at = ? AND seq > ?))',
    key: (r) => [r.run_at, r.run_at, r.seq],
  },
  running: {
    state: 2,
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

export function listTasks(db: Database.Database, q: TaskListQuery): Page<TaskSummary> {
  const spec = ORDER[potatoqState(q.state)];
  const scope = `tasks:${q.state}`;
  const where = new Where()
    .add(`state = ${spec.state}`)
    .addIf(q.queue, 'queue = ?', q.queue)
    .addIf(q.task, 'task = ?', q.task)
    .addIf(q.id, 'instr(id, ?) = 1', q.id)
    .addIf(q.q, `payload LIKE ? ESCAPE '\\'`, q.q && containsPattern(q.q));
  const after = decodeCursor(scope, q.cursor, 3);
  if (after) where.add(spec.after, ...after);
  const rows = db
    .prepare(`SELECT ${COLUMNS}, ${PAYLOAD_FOR_PREVIEW} FROM potatoq_jobs ${where} ORDER BY ${spec.order} LIMIT ?`)
    .safeIntegers(true)
    .all(...where.params, q.limit + 1) as JobRow[];
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map(summary), nextCursor: more && last ? encodeCursor(scope, spec.key(last)) : null };
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
