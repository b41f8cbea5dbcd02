import 'server-only';
import { getStateHandle, openStateHandle, type PostgresHandle, type SqliteHandle, type StateHandle } from '@/lib/state/handle';
import { createSqlBulkStore, type SqlRunner } from './store-sql';
import type { BulkStore } from './store';

// The bulk jobs, the move journal and the pause leases as `?`-placeholder SQL over the
// console's state store (lib/state: one SQLite handle or one pg Pool per process, whose schema
// steps made the tables).

function sqliteRunner(h: SqliteHandle, owned: boolean): SqlRunner {
  const db = h.db;
  const conv = (p: unknown[]) => p.map((v) => (typeof v === 'boolean' ? Number(v) : v));
  return {
    run: async (sql: string, p: unknown[]) => db.prepare(sql).run(...conv(p)).changes,
    all: async <T>(sql: string, p: unknown[]) => db.prepare(sql).all(...conv(p)) as T[],
    // Synchronous from BEGIN to COMMIT (see SqlRunner.batch): no other code of this process
    // runs while the write lock is held, nor writes into this transaction on the shared handle.
    batch: async (steps) => {
      db.transaction(() => {
        for (const [sql, p] of steps) db.prepare(sql).run(...conv(p));
      }).immediate();
    },
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
        for (const [sql, p] of steps) await t.query(numbered(sql), p);
        await t.query('COMMIT');
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

/** SQL over `h` (its schema up to date); `owned`: closing the runner closes the handle. */
export async function runnerOf(h: StateHandle, owned = false): Promise<SqlRunner> {
  try {
    await h.ready();
  } catch (e) {
    if (owned) await h.close().catch(() => undefined);
    throw e;
  }
  return h.kind === 'postgres' ? postgresRunner(h, owned) : sqliteRunner(h, owned);
}

const DB = Symbol.for('potatoq.console.stateDb');
const KEY = Symbol.for('potatoq.console.bulkStore');
type Global = typeof globalThis & { [DB]?: Promise<SqlRunner>; [KEY]?: Promise<BulkStore> };

/** The state store's tables (bulk jobs, move journal, pause leases), opened once; retried after a failure. */
export function getStateDb(): Promise<SqlRunner> {
  const g = globalThis as Global;
  g[DB] ??= getStateHandle().then((h) => runnerOf(h));
  g[DB].catch(() => {
    delete g[DB];
  });
  return g[DB];
}

export function getBulkStore(): Promise<BulkStore> {
  const g = globalThis as Global;
  g[KEY] ??= getStateDb().then(createSqlBulkStore);
  g[KEY].catch(() => {
    delete g[KEY];
  });
  return g[KEY];
}

/** Tests only. */
export function setBulkStoreForTests(store: BulkStore | null): void {
  const g = globalThis as Global;
  if (store) g[KEY] = Promise.resolve(store);
  else delete g[KEY];
}

/** A private store in a temp or in-memory SQLite file, for tests. */
export async function openSqliteBulkStore(file: string): Promise<BulkStore> {
  return createSqlBulkStore(await openStateDbForTests(file));
}

/** The state tables on a handle of their own (a temp or in-memory SQLite file, or a PostgreSQL
 *  database), for tests; closing the runner closes it. */
export function openStateDbForTests(where: string): Promise<SqlRunner> {
  return runnerOf(openStateHandle(where), true);
}
