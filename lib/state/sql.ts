import 'server-only';
import { getStateHandle, openStateHandle, type PostgresHandle, type SqliteHandle, type StateHandle } from './handle';

// `?`-placeholder SQL over the console's state store (one SQLite handle or one pg Pool per
// process), as the bulk jobs, the move journal and the leases use it.

export interface SqlRunner {
  /** Answers how many rows the statement changed. */
  run(sql: string, params: unknown[]): Promise<number>;
  all<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]>;
  /**
   * Runs the statements in one transaction. A list, not a callback: on SQLite the transaction
   * runs synchronously on the process's one handle, so no other code of this process (the
   * audit trail, the trends, the limiters on the same handle) runs, or writes into it, while
   * the file's write lock is held. Answers how many rows each statement changed.
   */
  batch(statements: ReadonlyArray<readonly [sql: string, params: unknown[]]>): Promise<number[]>;
  /** Closes the handle only if this runner opened it. */
  close(): Promise<void>;
}

function sqliteRunner(h: SqliteHandle, owned: boolean): SqlRunner {
  const db = h.db;
  const conv = (p: unknown[]) => p.map((v) => (typeof v === 'boolean' ? Number(v) : v));
  return {
    run: async (sql: string, p: unknown[]) => db.prepare(sql).run(...conv(p)).changes,
    all: async <T>(sql: string, p: unknown[]) => db.prepare(sql).all(...conv(p)) as T[],
    // Synchronous from BEGIN to COMMIT (see SqlRunner.batch): no other code of this process
    // runs while the write lock is held, nor writes into this transaction on the shared handle.
    batch: async (steps) => db.transaction(() => steps.map(([sql, p]) => db.prepare(sql).run(...conv(p)).changes)).immediate(),
    close: async () => {
      if (owned) await h.close();
    },
  };
}

function postgresRunner(h: PostgresHandle, owned: boolean): SqlRunner {
  const pool = h.pool;
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    run: async (sql, p) => (await pool.query(numbered(sql), p)).rowCount ?? 0,
    all: async <T>(sql: string, p: unknown[]) => (await pool.query(numbered(sql), p)).rows as T[],
    async batch(steps) {
      const t = await pool.connect();
      try {
        await t.query('BEGIN');
        const changed: number[] = [];
        for (const [sql, p] of steps) changed.push((await t.query(numbered(sql), p)).rowCount ?? 0);
        await t.query('COMMIT');
        return changed;
      } catch (e) {
        await t.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        t.release();
      }
    },
    close: async () => {
      if (owned) await h.close();
    },
  };
}

/** SQL over `h`, which must be ready (or awaited by the caller); `owned`: closing the runner closes the handle. */
export function sqlOf(h: StateHandle, owned = false): SqlRunner {
  return h.kind === 'postgres' ? postgresRunner(h, owned) : sqliteRunner(h, owned);
}

/** SQL over `h` once its schema is up to date; `owned`: closing the runner closes the handle. */
export async function runnerOf(h: StateHandle, owned = false): Promise<SqlRunner> {
  try {
    await h.ready();
  } catch (e) {
    if (owned) await h.close().catch(() => undefined);
    throw e;
  }
  return sqlOf(h, owned);
}

const DB = Symbol.for('potatoq.console.stateDb');
type Global = typeof globalThis & { [DB]?: Promise<SqlRunner> };

/** SQL over the process's state store, opened once; retried after a failure. */
export function getStateDb(): Promise<SqlRunner> {
  const g = globalThis as Global;
  g[DB] ??= getStateHandle().then((h) => runnerOf(h));
  g[DB].catch(() => {
    delete g[DB];
  });
  return g[DB];
}

/** SQL on a handle of its own (a temp or in-memory SQLite file, or a PostgreSQL database), for
 *  tests; closing the runner closes it. */
export function openStateDbForTests(where: string): Promise<SqlRunner> {
  return runnerOf(openStateHandle(where), true);
}
