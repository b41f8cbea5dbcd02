import 'server-only';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { SqlRunner } from '@/lib/state/sql';
import type { BulkRow, BulkStore, ControlRequest } from './store';

export type { SqlRunner };

// The bulk-job tables (lib/state/steps.ts), the same in SQLite and PostgreSQL (JSON as text,
// times as ISO text, the heartbeat as epoch ms). `?` placeholders; the PostgreSQL runner
// renumbers them.

type Stored = {
  row: string;
  state: string;
  owner: string | null;
  heartbeat_ms: number | string;
  control: string | null;
  finished_at: string | null;
};

// The columns queried on are their own; the rest of the row is one JSON document.
function fromStored(r: Stored): BulkRow {
  const row = JSON.parse(r.row) as BulkRow;
  return {
    ...row,
    state: r.state as BulkRow['state'],
    owner: r.owner,
    heartbeatMs: Number(r.heartbeat_ms),
    control: r.control ? (JSON.parse(r.control) as ControlRequest) : null,
    finishedAt: r.finished_at,
  };
}

const body = (row: BulkRow) => JSON.stringify({ ...row, control: null });

export function createSqlBulkStore(db: SqlRunner): BulkStore {
  return {
    async create(row, ids) {
      await db.run(
        'INSERT INTO console_bulk_jobs (id, broker, created_at, state, owner, heartbeat_ms, control, finished_at, row, ids) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)',
        [row.id, row.brokerId, row.createdAt, row.state, row.owner, row.heartbeatMs, row.finishedAt, body(row), JSON.stringify(ids)],
      );
    },
    async save(row, outcomes = []) {
      const steps: Array<[string, unknown[]]> = [
        [
          'UPDATE console_bulk_jobs SET state = ?, owner = ?, heartbeat_ms = ?, finished_at = ?, row = ? WHERE id = ?',
          [row.state, row.owner, row.heartbeatMs, row.finishedAt, body(row), row.id],
        ],
      ];
      // One statement per 200 outcomes (bounded parameter counts on both stores), numbered after
      // the job's last one by the statement itself: nothing is read between the statements.
      for (let i = 0; i < outcomes.length; i += 200) {
        const part = outcomes.slice(i, i + 200);
        steps.push([
          `INSERT INTO console_bulk_outcomes (job_id, n, id, outcome, message)
           SELECT ?, (SELECT COALESCE(MAX(n), -1) FROM console_bulk_outcomes WHERE job_id = ?) + v.k, v.id, v.outcome, v.message
           FROM (${part.map(() => 'SELECT CAST(? AS INTEGER) AS k, ? AS id, ? AS outcome, ? AS message').join(' UNION ALL ')}) AS v`,
          [row.id, row.id, ...part.flatMap((o, k) => [k + 1, o.id, o.outcome, o.message])],
        ]);
      }
      await db.batch(steps);
    },
    async get(id) {
      const r = await db.all<Stored>('SELECT row, state, owner, heartbeat_ms, control, finished_at FROM console_bulk_jobs WHERE id = ?', [
        id,
      ]);
      return r[0] ? fromStored(r[0]) : null;
    },
    async ids(id) {
      const r = await db.all<{ ids: string }>('SELECT ids FROM console_bulk_jobs WHERE id = ?', [id]);
      return r[0] ? (JSON.parse(r[0].ids) as string[]) : [];
    },
    async outcomes(id, limit) {
      const r = await db.all<ActionOutcome>('SELECT id, outcome, message FROM console_bulk_outcomes WHERE job_id = ? ORDER BY n LIMIT ?', [
        id,
        limit,
      ]);
      return r.map((o) => ({ id: o.id, outcome: o.outcome, message: o.message }));
    },
    async list(brokerId, limit) {
      const r = await db.all<Stored>(
        'SELECT row, state, owner, heartbeat_ms, control, finished_at FROM console_bulk_jobs WHERE broker = ? ORDER BY created_at DESC LIMIT ?',
        [brokerId, limit],
      );
      return r.map(fromStored);
    },
    async claim(id, expect, owner, nowMs) {
      // Compare-and-set in one statement; RETURNING tells whether this caller's row changed.
      const r = await db.all<{ id: string }>(
        `UPDATE console_bulk_jobs SET owner = ?, heartbeat_ms = ? WHERE id = ? AND heartbeat_ms = ? AND ${expect.owner === null ? 'owner IS NULL' : 'owner = ?'} RETURNING id`,
        [owner, nowMs, id, expect.heartbeatMs, ...(expect.owner === null ? [] : [expect.owner])],
      );
      return r.length === 1;
    },
    async request(id, req) {
      await db.run('UPDATE console_bulk_jobs SET control = ? WHERE id = ?', [req ? JSON.stringify(req) : null, id]);
    },
    async prune(beforeMs, queuedBeforeMs) {
      const old = (ms: number) => new Date(ms).toISOString();
      const gone = `SELECT id FROM console_bulk_jobs WHERE (finished_at IS NOT NULL AND finished_at < ?) OR (state = 'queued' AND created_at < ?)`;
      const p = [old(beforeMs), old(queuedBeforeMs)];
      await db.batch([
        [`DELETE FROM console_bulk_outcomes WHERE job_id IN (${gone})`, p],
        [`DELETE FROM console_bulk_jobs WHERE id IN (${gone})`, p],
      ]);
    },
    close: () => db.close(),
  };
}
