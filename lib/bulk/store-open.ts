import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { stateLocation } from '@/lib/audit/store';
import { MOVE_JOURNAL_DDL } from '@/lib/brokers/move-journal';
import { LEASE_DDL } from '@/lib/leases/schema';
import { BULK_DDL, createSqlBulkStore, type SqlRunner } from './store-sql';
import type { BulkStore } from './store';
import { guardPool } from '@/lib/pool-guard';

// Opens the console's state tables where the audit trail lives (POTATOQ_CONSOLE_STATE), once
// per process: the bulk jobs, the move journal and the pause leases share one connection (pool).

/** The state store's schema, one step per feature, in order; each step is idempotent
 *  (`CREATE … IF NOT EXISTS`) and runs at every open. */
const STATE_STEPS: readonly (readonly string[])[] = [BULK_DDL, MOVE_JOURNAL_DDL, LEASE_DDL];

function sqliteRunner(file: string): Promise<SqlRunner> {
  return import('better-sqlite3').then(({ default: Database }) => {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    // A commit is on disk before it returns, also in WAL mode: the move journal's write-ahead
    // row must outlive a crash (or a power cut) right after the task was sent.
    db.pragma('synchronous = FULL');
    for (const step of STATE_STEPS) for (const s of step) db.exec(s);
    const conv = (p: unknown[]) => p.map((v) => (typeof v === 'boolean' ? Number(v) : v));
    const r = {
      run: async (sql: string, p: unknown[]) => db.prepare(sql).run(...conv(p)).changes,
      all: async <T>(sql: string, p: unknown[]) => db.prepare(sql).all(...conv(p)) as T[],
    };
    const runner: SqlRunner = {
      ...r,
      // Synchronous from BEGIN to COMMIT (see SqlRunner.batch): no other code of this process
      // runs while the write lock is held.
      batch: async (steps) => {
        db.transaction(() => {
          for (const [sql, p] of steps) db.prepare(sql).run(...conv(p));
        }).immediate();
      },
      close: async () => void db.close(),
    };
    return runner;
  });
}

async function postgresRunner(url: string): Promise<SqlRunner> {
  const { Pool } = await import('pg');
  // A state store that does not answer fails a call within seconds instead of holding it.
  const pool = guardPool(new Pool({ connectionString: url, max: 3, connectionTimeoutMillis: 5_000 }), 'state');
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const c = await pool.connect();
  try {
    // One statement at a time under an advisory lock: instances starting together never race.
    await c.query('SELECT pg_advisory_lock(727274002)');
    try {
      for (const step of STATE_STEPS) for (const s of step) await c.query(s);
    } finally {
      await c.query('SELECT pg_advisory_unlock(727274002)').catch(() => {});
    }
  } finally {
    c.release();
  }
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
    close: () => pool.end(),
  };
}

const DB = Symbol.for('potatoq.console.stateDb');
const KEY = Symbol.for('potatoq.console.bulkStore');
type Global = typeof globalThis & { [DB]?: Promise<SqlRunner>; [KEY]?: Promise<BulkStore> };

/** The state store's tables (bulk jobs, move journal, pause leases), opened once; retried after a failure. */
export function getStateDb(): Promise<SqlRunner> {
  const g = globalThis as Global;
  g[DB] ??= (async () => {
    const loc = stateLocation();
    return loc.kind === 'postgres' ? await postgresRunner(loc.where) : await sqliteRunner(loc.where);
  })();
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
  return createSqlBulkStore(await sqliteRunner(file));
}

/** The state tables in a temp or in-memory SQLite file, or a PostgreSQL database, for tests. */
export function openStateDbForTests(where: string): Promise<SqlRunner> {
  return /^postgres(ql)?:\/\//i.test(where) ? postgresRunner(where) : sqliteRunner(where);
}
