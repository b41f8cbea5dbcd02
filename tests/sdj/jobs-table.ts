// Test helper (not shipped code): reading one `jobs` row the way the console will (ids as UUID
// strings, args decoded from JSON bytes), and the raw-SQL enqueue exactly as Simple Durable Jobs
// documents it (docs/content/docs/advanced/sql-interop.md at v4.5.1), with the one correction
// the real MySQL schema forces: the id is bound as its 16 bytes, not the 36-character string.
import { randomUUID } from 'node:crypto';
import type { Row, TestDb } from './databases';

export interface JobRow {
  id: string;
  type: string;
  queue: string;
  status: string;
  priority: number;
  attempt: number;
  max_retries: number;
  args: unknown;
  /** All columns as read, for the NULL checks (Buffers, Dates, numbers as the driver gives them). */
  raw: Row;
}

/** 16 bytes in RFC 4122 order, as the library's core.UUID stores them in MySQL's binary(16). */
export const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
export const uuidFromBytes = (b: Buffer) => b.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

export async function readJob(db: TestDb, id: string): Promise<JobRow | undefined> {
  const rows =
    db.dialect === 'postgres'
      ? await db.query('SELECT * FROM jobs WHERE id = $1', [id])
      : await db.query('SELECT * FROM jobs WHERE id = ?', [uuidBytes(id)]);
  const r = rows[0];
  if (!r) return undefined;
  const args = r.args as Buffer | null;
  return {
    id: Buffer.isBuffer(r.id) ? uuidFromBytes(r.id) : String(r.id),
    type: String(r.type),
    queue: String(r.queue),
    status: String(r.status),
    priority: Number(r.priority),
    attempt: Number(r.attempt),
    max_retries: Number(r.max_retries),
    args: args ? (JSON.parse(args.toString('utf8')) as unknown) : null,
    raw: r,
  };
}

export interface RawEnqueue {
  type: string;
  args: unknown;
  queue: string;
  priority?: number;
  maxRetries?: number;
  runAt?: Date | null;
}

/** The contract's INSERT: only the columns it names, status 'pending', attempt 0, a new UUID. */
export async function rawEnqueue(db: TestDb, job: RawEnqueue): Promise<string> {
  const id = randomUUID();
  const args = Buffer.from(JSON.stringify(job.args), 'utf8');
  const params = [job.type, args, job.queue, job.priority ?? 0, job.maxRetries ?? 3, job.runAt ?? null];
  if (db.dialect === 'postgres') {
    await db.query(
      `INSERT INTO jobs (id, type, args, queue, priority, status, attempt, max_retries, timeout, determinism, run_at, created_at, updated_at)
       VALUES ($1, $2, $3::bytea, $4, $5, 'pending', 0, $6, 0, 0, $7, NOW(), NOW())`,
      [id, ...params],
    );
  } else {
    await db.query(
      `INSERT INTO jobs (id, type, args, queue, priority, status, attempt, max_retries, timeout, determinism, run_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, 0, 0, ?, NOW(6), NOW(6))`,
      [uuidBytes(id), ...params],
    );
  }
  return id;
}
