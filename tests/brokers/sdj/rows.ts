// Test support: rows written the way Simple Durable Jobs v4.5.1 writes them, statement by
// statement as docs/systems/simple-durable-jobs.md records ("Statuses and transitions", "Dead
// letters and their reasons"): the Go API's enqueue (UUIDv7 ids, '' in the text columns), a
// worker's claim, a terminal failure with the library's reason expression, checkpoints and a
// one-level fan-out. `db.query` takes `?` here and numbers it for PostgreSQL.
import { randomBytes } from 'node:crypto';
import type { Row, TestDb } from '@/tests/sdj/databases';
import { uuidBytes } from '@/tests/sdj/jobs-table';

let lastMs = 0;
let seq = 0;
/** A UUIDv7, as the Go API makes ids (time-ordered, then random). */
export function uuidv7(): string {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  const b = randomBytes(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | ((seq >> 8) & 0x0f);
  b[7] = seq & 0xff;
  b[8] = 0x80 | (b[8]! & 0x3f);
  return b.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}

export const idOf = (db: TestDb, id: string) => (db.dialect === 'postgres' ? id : uuidBytes(id));
const now = (db: TestDb) => (db.dialect === 'postgres' ? 'NOW()' : 'NOW(6)');
export function q<R extends Row = Row>(db: TestDb, sql: string, params: unknown[] = []): Promise<R[]> {
  let n = 0;
  return db.query<R>(db.dialect === 'postgres' ? sql.replace(/\?/g, () => `$${++n}`) : sql, params);
}

export interface GoEnqueue {
  type?: string;
  args?: unknown;
  queue: string;
  priority?: number;
  maxRetries?: number;
  uniqueKey?: string;
  /** A literal created_at (database text), else NOW(). */
  createdAt?: string;
  status?: string;
  parent?: { parentId: string; rootId: string; fanOutId: string; index: number };
  /** The id to use (else a new UUIDv7). */
  id?: string;
  /** `Delay(d)`: `run_at` this many seconds ahead and `dq_ready = false` until due. */
  delaySeconds?: number;
}

/** `Queue.EnqueueRemote`: every column the Go API writes, '' where it leaves text unset. */
export async function goEnqueue(db: TestDb, j: GoEnqueue): Promise<string> {
  const id = j.id ?? uuidv7();
  const created = j.createdAt ? '?' : now(db);
  const p = j.parent;
  const delayed = j.delaySeconds !== undefined && j.delaySeconds > 0;
  const runAt = !delayed
    ? 'NULL'
    : db.dialect === 'postgres'
      ? `NOW() + make_interval(secs => ${Number(j.delaySeconds)})`
      : `NOW(6) + INTERVAL ${Math.round(Number(j.delaySeconds) * 1e6)} MICROSECOND`;
  await q(
    db,
    `INSERT INTO jobs (id, type, args, queue, tenant, priority, status, previous_status, attempt, max_retries, timeout, determinism,
       last_error, dead_letter_reason, created_at, updated_at, locked_by, unique_key, dq_ready, parent_job_id, root_job_id, fan_out_id, fan_out_index, run_at)
     VALUES (?, ?, ?, ?, '', ?, ?, '', 0, ?, 0, 0, '', '', ${created}, ${created}, '', ?, ${delayed ? 'false' : 'true'}, ?, ?, ?, ?, ${runAt})`,
    [
      idOf(db, id),
      j.type ?? 'record',
      Buffer.from(JSON.stringify(j.args ?? { n: 1 }), 'utf8'),
      j.queue,
      j.priority ?? 0,
      j.status ?? 'pending',
      j.maxRetries ?? 2,
      ...(j.createdAt ? [j.createdAt, j.createdAt] : []),
      j.uniqueKey ?? '',
      p ? idOf(db, p.parentId) : null,
      p ? idOf(db, p.rootId) : null,
      p ? idOf(db, p.fanOutId) : null,
      p?.index ?? 0,
    ],
  );
  return id;
}

/** The claim: `running`, locked by the worker for 45 min, attempt + 1. */
export async function claim(db: TestDb, id: string, worker = 'worker-1'): Promise<void> {
  const n = now(db);
  const until = db.dialect === 'postgres' ? "NOW() + INTERVAL '45 minutes'" : 'NOW(6) + INTERVAL 45 MINUTE';
  await q(
    db,
    `UPDATE jobs SET status = 'running', locked_by = ?, locked_until = ${until}, started_at = ${n}, attempt = attempt + 1, last_heartbeat_at = NULL, updated_at = ${n} WHERE id = ?`,
    [worker, idOf(db, id)],
  );
}

/** A terminal failure: `failed`, dead-lettered, the reason computed as `deadLetterReasonExpr` does. */
export async function deadLetter(db: TestDb, id: string, err: string): Promise<void> {
  const n = now(db);
  const cat = (a: string, b: string) => (db.dialect === 'postgres' ? `${a} || ${b}` : `CONCAT(${a}, ${b})`);
  await q(
    db,
    `UPDATE jobs SET status = 'failed', completed_at = ${n}, dead_lettered_at = ${n}, last_error = ?, locked_by = '', locked_until = NULL, updated_at = ${n},
       dead_letter_reason = CASE WHEN attempt >= max_retries THEN ${cat("'max retries exhausted: '", '?')} ELSE ${cat("'non-retryable failure: '", '?')} END
     WHERE id = ?`,
    [err, err, err, idOf(db, id)],
  );
}

/** Claimed once and failed for good: a dead letter. */
export async function makeDeadLetter(db: TestDb, j: GoEnqueue & { error?: string }): Promise<string> {
  const id = await goEnqueue(db, j);
  await claim(db, id);
  await deadLetter(db, id, j.error ?? 'harness: permanent failure');
  return id;
}

export async function addCheckpoint(db: TestDb, jobId: string, callIndex: number, callType: string, result: unknown): Promise<void> {
  await q(db, `INSERT INTO checkpoints (id, job_id, call_index, call_type, result, created_at) VALUES (?, ?, ?, ?, ?, ${now(db)})`, [
    idOf(db, uuidv7()),
    idOf(db, jobId),
    callIndex,
    callType,
    Buffer.from(JSON.stringify(result), 'utf8'),
  ]);
}

/** A running parent fanning out `n` sub-jobs (CollectAll): fan_outs row, sub-jobs, a `fanout` checkpoint, parent `waiting`. */
export async function fanOut(db: TestDb, parentId: string, n: number, queue: string): Promise<{ fanOutId: string; children: string[] }> {
  const fanOutId = uuidv7();
  await q(
    db,
    `INSERT INTO fan_outs (id, parent_job_id, total_count, completed_count, failed_count, cancelled_count, strategy, threshold, status, cancel_on_fail, created_at, updated_at)
     VALUES (?, ?, ?, 0, 0, 0, 'collect_all', 1, 'pending', false, ${now(db)}, ${now(db)})`,
    [idOf(db, fanOutId), idOf(db, parentId), n],
  );
  const children: string[] = [];
  for (let i = 0; i < n; i++)
    children.push(
      await goEnqueue(db, { queue, type: 'record', args: { item: i }, parent: { parentId, rootId: parentId, fanOutId, index: i } }),
    );
  await addCheckpoint(db, parentId, 0, 'fanout', { fan_out_id: fanOutId, call_index: 0 });
  await q(db, `UPDATE jobs SET status = 'waiting', updated_at = ${now(db)} WHERE id = ?`, [idOf(db, parentId)]);
  return { fanOutId, children };
}
