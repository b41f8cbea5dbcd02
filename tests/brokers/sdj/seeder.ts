// Test support: the shared battery's seeder for Simple Durable Jobs, writing rows natively the
// way the library writes them (rows.ts: the Go API's enqueue, a worker's claim with the
// library's dequeue order, the terminal failure with its reason expression), never through the
// adapter. A job's `args` is one JSON value: the seed's positional args (a list) when it has
// them, else its keyword args (an object). Ids are random (v4) UUIDs, as a raw-SQL producer
// makes them: the Go API's UUIDv7 ids of one millisecond share their first 12 characters, and
// the battery finds a job by the first 8.
import { randomUUID } from 'node:crypto';
import type { ContractSeeder, SeedMessage } from '@/tests/contract';
import type { TestDb } from '@/tests/sdj/databases';
import { uuidFromBytes } from '@/tests/sdj/jobs-table';
import { claim, deadLetter, goEnqueue, idOf, q } from './rows';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idText = (v: unknown) => (Buffer.isBuffer(v) ? uuidFromBytes(v) : String(v));
const bytesOf = (v: unknown): Buffer | null => (v === null || v === undefined ? null : Buffer.isBuffer(v) ? v : Buffer.from(String(v)));

function enqueueOne(db: TestDb, m: SeedMessage): Promise<string> {
  return goEnqueue(db, {
    type: m.task,
    queue: m.queue,
    args: m.args ?? m.kwargs ?? {},
    priority: m.priority ?? 0,
    id: m.id && UUID.test(m.id) ? m.id.toLowerCase() : randomUUID(),
    ...(m.countdown ? { delaySeconds: m.countdown } : {}),
  });
}

async function row(db: TestDb, id: string): Promise<Record<string, unknown> | null> {
  if (!UUID.test(id)) return null;
  const [r] = await q(db, 'SELECT status, args, run_at, dead_lettered_at, type FROM jobs WHERE id = ?', [idOf(db, id)]);
  return r ?? null;
}

export function sdjSeeder(db: TestDb): ContractSeeder {
  const nowSql = db.dialect === 'postgres' ? 'NOW()' : 'NOW(6)';
  const ago = (s: number) =>
    db.dialect === 'postgres' ? `NOW() - make_interval(secs => ${s})` : `NOW(6) - INTERVAL ${Math.round(s * 1e6)} MICROSECOND`;
  return {
    enqueue: (m) => enqueueOne(db, m),
    async enqueueMany(ms) {
      const ids: string[] = [];
      for (const m of ms) ids.push(await enqueueOne(db, m));
      return ids;
    },
    /** The library's dequeue (dequeueOnce): the next due pending job of an unpaused queue, by
     *  priority, then due time, then id; claimed as a worker claims it. */
    async claim(queue) {
      const [r] = await q(
        db,
        `SELECT id FROM jobs WHERE queue = ? AND queue NOT IN (SELECT queue FROM queue_states WHERE paused = true)
           AND status = 'pending' AND COALESCE(run_at, created_at) <= ${nowSql} AND (locked_until IS NULL OR locked_until < ${nowSql})
         ORDER BY priority DESC, COALESCE(run_at, created_at), id LIMIT 1`,
        [queue],
      );
      if (!r) return null;
      const id = idText(r.id);
      await claim(db, id);
      return id;
    },
    async deadLetter(m) {
      // A letter with keyword args keeps them as its args object: the one JSON value SDJ's
      // edit-and-replay edits key by key (a list cannot be).
      const id = await enqueueOne(db, m.kwargs && Object.keys(m.kwargs).length ? { ...m, args: undefined } : m);
      await claim(db, id);
      await deadLetter(db, id, m.reason);
      if (m.diedAgo)
        await q(db, `UPDATE jobs SET dead_lettered_at = ${ago(m.diedAgo)}, completed_at = ${ago(m.diedAgo)} WHERE id = ?`, [idOf(db, id)]);
      return id;
    },
    async deadLetterRaw(r) {
      if (!UUID.test(r.id)) throw new Error('a Simple Durable Jobs id is a UUID');
      await goEnqueue(db, { id: r.id.toLowerCase(), type: r.task, queue: r.queue });
      await q(db, 'UPDATE jobs SET args = ? WHERE id = ?', [Buffer.from(r.payload, 'utf8'), idOf(db, r.id)]);
      await claim(db, r.id);
      await deadLetter(db, r.id, r.reason);
    },
    async jobState(id) {
      const r = await row(db, id);
      const status = r ? String(r.status) : null;
      return status && ['pending', 'running', 'waiting', 'paused'].includes(status) ? status : null;
    },
    async jobPayload(id) {
      const b = bytesOf((await row(db, id))?.args);
      return b ? b.toString('utf8') : null;
    },
    async jobMessage(id) {
      const r = await row(db, id);
      const b = bytesOf(r?.args);
      if (!r || !b) return null;
      const runAt = r.run_at === null || r.run_at === undefined ? undefined : String(r.run_at);
      return { args: JSON.parse(b.toString('utf8')) as unknown, ...(runAt ? { eta: runAt } : {}) };
    },
    async isDead(id) {
      const r = await row(db, id);
      return !!r && r.dead_lettered_at !== null && r.dead_lettered_at !== undefined;
    },
    async result(id) {
      const r = await row(db, id);
      const status = r ? String(r.status) : '';
      return r && ['completed', 'failed', 'cancelled'].includes(status)
        ? { status: status.toUpperCase(), name: String(r.type), keys: [] }
        : null;
    },
    /** Rows per queue that no worker holds and that are no dead letters: what the non-owned
     *  declared states count together. */
    async queueSizes() {
      const rows = await q(db, "SELECT queue, COUNT(*) AS n FROM jobs WHERE status NOT IN ('running', 'failed') GROUP BY queue");
      return Object.fromEntries(rows.map((r) => [String(r.queue), Number(r.n)]));
    },
  };
}
