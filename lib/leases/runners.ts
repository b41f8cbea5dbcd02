import 'server-only';
import fs from 'node:fs';
import path from 'node:path';

/** SQL with `?` placeholders on the console's state store; `run` answers the rows it changed. */
export interface LeaseRunner {
  run(sql: string, params: unknown[]): Promise<number>;
  all<T>(sql: string, params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

// The schema is created where the store is opened, as the audit trail's and the bulk jobs' are:
// `CREATE … IF NOT EXISTS`, so an older state file gains the table on the first start that needs it.

export async function openSqliteRunner(file: string, ddl: string[]): Promise<LeaseRunner> {
  const { default: Database } = await import('better-sqlite3');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  // Several console processes on one file: a write waits for another's instead of failing.
  db.pragma('busy_timeout = 5000');
  for (const s of ddl) db.exec(s);
  return {
    run: async (sql, p) => db.prepare(sql).run(...p).changes,
    all: async <T>(sql: string, p: unknown[]) => db.prepare(sql).all(...p) as T[],
    close: async () => void db.close(),
  };
}

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export async function openPostgresRunner(url: string, ddl: string[], tables: string[]): Promise<LeaseRunner> {
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  const c = await pool.connect();
  try {
    // As the audit store: no DDL when the tables exist; else one statement at a time under an
    // advisory lock, so instances starting together never race on CREATE TABLE.
    const have = await c.query<{ n: string }>('SELECT count(to_regclass(name)) AS n FROM unnest($1::text[]) AS name', [tables]);
    if (Number(have.rows[0]!.n) !== tables.length) {
      await c.query('SELECT pg_advisory_lock(727274003)');
      try {
        for (const s of ddl) await c.query(s);
      } finally {
        await c.query('SELECT pg_advisory_unlock(727274003)').catch(() => {});
      }
    }
  } finally {
    c.release();
  }
  return {
    run: async (sql, p) => (await pool.query(numbered(sql), p)).rowCount ?? 0,
    all: async <T>(sql: string, p: unknown[]) => (await pool.query(numbered(sql), p)).rows as T[],
    close: () => pool.end(),
  };
}
