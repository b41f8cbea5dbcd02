import 'server-only';
import type Database from 'better-sqlite3';
import type { Pool } from 'pg';
import { STEPS } from './steps';

// Brings the console's schema up to date: every step of STEPS runs. Each statement is
// idempotent, so a store made by an earlier release upgrades in place with its rows.

export function migrateSqlite(db: Database.Database): void {
  for (const step of STEPS) {
    for (const s of step.statements('sqlite')) db.exec(s);
    for (const [table, column, type] of step.columns?.('sqlite') ?? []) {
      // SQLite has no ADD COLUMN IF NOT EXISTS.
      const have = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).some((c) => c.name === column);
      if (!have) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
  }
}

/** Serialises instances starting together on one database. */
const LOCK = 727274002;

export async function migratePostgres(pool: Pool): Promise<void> {
  const c = await pool.connect();
  try {
    // One statement per transaction (each its own implicit one), so the schema step holds one
    // table lock at a time and can never deadlock with another instance writing entries
    // (CREATE INDEX IF NOT EXISTS takes a SHARE lock on its table even when the index exists).
    await c.query('SELECT pg_advisory_lock($1)', [LOCK]);
    try {
      for (const step of STEPS) {
        for (const s of step.statements('postgres')) await c.query(s);
        for (const [table, column, type] of step.columns?.('postgres') ?? [])
          await c.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`);
      }
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [LOCK]).catch(() => {});
    }
  } finally {
    c.release();
  }
}
