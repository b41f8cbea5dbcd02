import 'server-only';
import type Database from 'better-sqlite3';
import type { Pool, PoolClient } from 'pg';
import { STEPS, type SchemaStep } from './steps';

// The migration ledger: `console_schema_steps` records each step of STEPS that ran. A start
// whose steps are all recorded runs no DDL and takes no lock (one SELECT). A store made by a
// release before the ledger has the tables but no ledger: every step runs once over them (its
// statements are idempotent, see steps.ts) and is recorded, so the rows stay.

export const LEDGER = 'console_schema_steps';
const LEDGER_DDL = `CREATE TABLE IF NOT EXISTS ${LEDGER} (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`;

const pending = (done: ReadonlySet<string>): SchemaStep[] => STEPS.filter((s) => !done.has(s.id));

function sqliteDone(db: Database.Database): Set<string> {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(LEDGER);
  if (!has) return new Set();
  return new Set((db.prepare(`SELECT id FROM ${LEDGER}`).all() as Array<{ id: string }>).map((r) => r.id));
}

/** Runs the steps the ledger lacks; returns their ids (none on a second start). */
export function migrateSqlite(db: Database.Database): string[] {
  if (!pending(sqliteDone(db)).length) return [];
  // One write transaction: two processes opening one file never both run a step.
  return db
    .transaction(() => {
      db.exec(LEDGER_DDL);
      const todo = pending(sqliteDone(db));
      const record = db.prepare(`INSERT INTO ${LEDGER} (id, applied_at) VALUES (?, ?)`);
      for (const step of todo) {
        for (const s of step.statements('sqlite')) db.exec(s);
        for (const [table, column, type] of step.columns?.('sqlite') ?? []) {
          // SQLite has no ADD COLUMN IF NOT EXISTS.
          const have = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).some((c) => c.name === column);
          if (!have) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
        }
        record.run(step.id, new Date().toISOString());
      }
      return todo.map((s) => s.id);
    })
    .immediate();
}

/** Serialises instances starting together on one database. */
const LOCK = 727274002;

async function postgresDone(c: Pick<PoolClient, 'query'>): Promise<Set<string>> {
  const t = await c.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [LEDGER]);
  if (!t.rows[0]?.t) return new Set();
  return new Set((await c.query<{ id: string }>(`SELECT id FROM ${LEDGER}`)).rows.map((r) => r.id));
}

/** Runs the steps the ledger lacks; returns their ids (none on a second start). */
export async function migratePostgres(pool: Pool): Promise<string[]> {
  if (!pending(await postgresDone(pool)).length) return [];
  const c = await pool.connect();
  try {
    await c.query('SELECT pg_advisory_lock($1)', [LOCK]);
    try {
      await c.query(LEDGER_DDL);
      const todo = pending(await postgresDone(c));
      // One statement per transaction (each its own implicit one), so the schema step holds one
      // table lock at a time and can never deadlock with another instance writing entries
      // (CREATE INDEX IF NOT EXISTS takes a SHARE lock on its table even when the index exists).
      // A step cut off halfway is not recorded and runs again, idempotent, at the next start.
      for (const step of todo) {
        for (const s of step.statements('postgres')) await c.query(s);
        for (const [table, column, type] of step.columns?.('postgres') ?? [])
          await c.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`);
        await c.query(`INSERT INTO ${LEDGER} (id, applied_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [
          step.id,
          new Date().toISOString(),
        ]);
      }
      return todo.map((s) => s.id);
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [LOCK]).catch(() => {});
    }
  } finally {
    c.release();
  }
}
