import 'server-only';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { processId } from '@/lib/state/process-id';
import type { SqlRunner } from '@/lib/state/sql';
import { leaseName, OWNER_GONE_MS, OwnershipLost, type BulkRow, type BulkStore, type ControlRequest } from './store';

export type { SqlRunner };

// The bulk-job tables (lib/state/steps.ts), the same in SQLite and PostgreSQL (JSON as text,
// times as ISO text). `?` placeholders; the PostgreSQL runner renumbers them. Which console runs
// a job is its lease `bulk/<id>` in console_leases (lib/state/leases.ts) and nothing else: the
// job row has no owner column, and every write of it by its runner is conditioned, in the same
// transaction, on holding that lease (the fence below).

type Stored = {
  row: string;
  state: string;
  owner: string | null;
  expires_ms: number | string | null;
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
    heartbeatMs: r.expires_ms === null ? 0 : Number(r.expires_ms) - OWNER_GONE_MS,
    control: r.control ? (JSON.parse(r.control) as ControlRequest) : null,
    finishedAt: r.finished_at,
  };
}

const body = (row: BulkRow) => JSON.stringify({ ...row, owner: null, heartbeatMs: 0, control: null });
const SELECT = `SELECT j.row, j.state, l.holder AS owner, l.expires_ms, j.control, j.finished_at
  FROM console_bulk_jobs j LEFT JOIN console_leases l ON l.name = 'bulk/' || j.id`;
/** The caller holds the job's live lease: [name, holder, now]. */
const FENCE = 'EXISTS (SELECT 1 FROM console_leases WHERE name = ? AND holder = ? AND expires_ms > ?)';

export interface BulkStoreOptions {
  /** Who writes (default: this process's id); tests run two consoles in one process. */
  me?: string;
  /** Epoch ms (default Date.now); tests move it to let a lease run out. */
  now?: () => number;
}

export function createSqlBulkStore(db: SqlRunner, opts: BulkStoreOptions = {}): BulkStore {
  const me = opts.me ?? processId();
  const clock = opts.now ?? Date.now;
  return {
    me,
    async create(row, ids) {
      await db.run(
        'INSERT INTO console_bulk_jobs (id, broker, created_at, state, control, finished_at, row, ids) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)',
        [row.id, row.brokerId, row.createdAt, row.state, row.finishedAt, body(row), JSON.stringify(ids)],
      );
    },
    async save(row, outcomes = []) {
      const now = Math.round(clock());
      const lease = leaseName(row.id);
      const fence = [lease, me, now];
      const release = row.owner === null;
      const steps: Array<[string, unknown[]]> = [
        // First the lease row: renewed (or touched, when released below), which on PostgreSQL
        // also locks it, so no takeover commits between this and the writes that follow.
        [
          `UPDATE console_leases SET expires_ms = ${release ? 'expires_ms' : '?'} WHERE name = ? AND holder = ? AND expires_ms > ?`,
          [...(release ? [] : [now + OWNER_GONE_MS]), ...fence],
        ],
        [
          `UPDATE console_bulk_jobs SET state = ?, finished_at = ?, row = ? WHERE id = ? AND ${FENCE}`,
          [row.state, row.finishedAt, body(row), row.id, ...fence],
        ],
      ];
      // One statement per 200 outcomes (bounded parameter counts on both stores), numbered after
      // the job's last one by the statement itself: nothing is read between the statements.
      for (let i = 0; i < outcomes.length; i += 200) {
        const part = outcomes.slice(i, i + 200);
        steps.push([
          `INSERT INTO console_bulk_outcomes (job_id, n, id, outcome, message)
           SELECT ?, (SELECT COALESCE(MAX(n), -1) FROM console_bulk_outcomes WHERE job_id = ?) + v.k, v.id, v.outcome, v.message
           FROM (${part.map(() => 'SELECT CAST(? AS INTEGER) AS k, ? AS id, ? AS outcome, ? AS message').join(' UNION ALL ')}) AS v
           WHERE ${FENCE}`,
          [row.id, row.id, ...part.flatMap((o, k) => [k + 1, o.id, o.outcome, o.message]), ...fence],
        ]);
      }
      if (release) steps.push(['DELETE FROM console_leases WHERE name = ? AND holder = ? AND expires_ms > ?', fence]);
      const [held] = await db.batch(steps);
      if (held !== 1) throw new OwnershipLost(row.id);
    },
    async get(id) {
      const r = await db.all<Stored>(`${SELECT} WHERE j.id = ?`, [id]);
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
      const r = await db.all<Stored>(`${SELECT} WHERE j.broker = ? ORDER BY j.created_at DESC LIMIT ?`, [brokerId, limit]);
      return r.map(fromStored);
    },
    async claim(id) {
      // Take-or-renew in one upsert (as Leases.claim): the insert or the update that wins says so.
      const now = Math.round(clock());
      const r = await db.all<{ holder: string }>(
        `INSERT INTO console_leases (name, holder, expires_ms, started_at, data) VALUES (?, ?, ?, ?, NULL)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms, started_at = excluded.started_at
         WHERE console_leases.holder = excluded.holder OR console_leases.expires_ms <= ?
         RETURNING holder`,
        [leaseName(id), me, now + OWNER_GONE_MS, new Date(now).toISOString(), now],
      );
      return r.length === 1;
    },
    async release(id) {
      await db.run('DELETE FROM console_leases WHERE name = ? AND holder = ?', [leaseName(id), me]);
    },
    async request(id, req) {
      if (req) await db.run('UPDATE console_bulk_jobs SET control = ? WHERE id = ?', [JSON.stringify(req), id]);
      else
        await db.run(`UPDATE console_bulk_jobs SET control = NULL WHERE id = ? AND ${FENCE}`, [id, leaseName(id), me, Math.round(clock())]);
    },
    async prune(beforeMs, queuedBeforeMs) {
      const old = (ms: number) => new Date(ms).toISOString();
      const gone = `SELECT id FROM console_bulk_jobs WHERE (finished_at IS NOT NULL AND finished_at < ?) OR (state = 'queued' AND created_at < ?)`;
      const p = [old(beforeMs), old(queuedBeforeMs)];
      await db.batch([
        [`DELETE FROM console_bulk_outcomes WHERE job_id IN (${gone})`, p],
        // Leases of pruned jobs that ran out (a live one is left to its holder's release).
        [
          `DELETE FROM console_leases WHERE expires_ms <= ? AND name IN (SELECT 'bulk/' || id FROM (${gone}) AS g)`,
          [Math.round(clock()), ...p],
        ],
        [`DELETE FROM console_bulk_jobs WHERE id IN (${gone})`, p],
      ]);
    },
    close: () => db.close(),
  };
}
