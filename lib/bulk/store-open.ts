import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { stateLocation } from '@/lib/audit/store';
import { BULK_DDL, createSqlBulkStore, type SqlRunner } from './store-sql';
import type { BulkStore } from './store';

// Opens the bulk-job tables where the audit trail lives (POTATOQ_CONSOLE_STATE), once per process.

function sqliteRunner(file: string): Promise<SqlRunner> {
  return import('better-sqlite3').then(({ default: Database }) => {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    for (const s of BULK_DDL) db.exec(s);
    const conv = (p: unknown[]) => p.map((v) => (typeof v === 'boolean' ? Number(v) : v));
    const r = {
      run: async (sql: string, p: unknown[]) => void db.prepare(sql).run(...conv(p)),
      all: async <T>(sql: string, p: unknown[]) => db.prepare(sql).all(...conv(p)) as T[],
    };
    // One transaction at a time on the one connection: a second caller waits its turn
    // instead of finding a BEGIN already open.
    let turn: Promise<void> = Promise.resolve();
    const runner: SqlRunner = {
      ...r,
      tx(fn) {
        const mine = turn.then(async () => {
          db.exec('BEGIN IMMEDIATE');
          try {
            await fn(r);
            db.exec('COMMIT');
          } catch (e) {
            db.exec('ROLLBACK');
            throw e;
          }
        });
        turn = mine.catch(() => undefined);
        return mine;
      },
      close: async () => void db.close(),
    };
    return runner;
  });
}

async function postgresRunner(url: string): Promise<SqlRunner> {
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: url, max: 3 });
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const c = await pool.connect();
  try {
    // One statement at a time under an advisory lock: instances starting together never race.
    await c.query('SELECT pg_advisory_lock(727274002)');
    try {
      for (const s of BULK_DDL) await c.query(s);
    } finally {
      await c.query('SELECT pg_advisory_unlock(727274002)').catch(() => {});
    }
  } finally {
    c.release();
  }
  return {
    run: async (sql, p) => void (await pool.query(numbered(sql), p)),
    all: async <T>(sql: string, p: unknown[]) => (await pool.query(numbered(sql), p)).rows as T[],
    async tx(fn) {
      const t = await pool.connect();
      try {
        await t.query('BEGIN');
        await fn({
          run: async (sql, p) => void (await t.query(numbered(sql), p)),
          all: async <T>(sql: string, p: unknown[]) => (await t.query(numbered(sql), p)).rows as T[],
        });
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

const KEY = Symbol.for('potatoq.console.bulkStore');
type Global = typeof globalThis & { [KEY]?: Promise<BulkStore> };

export function getBulkStore(): Promise<BulkStore> {
  const g = globalThis as Global;
  g[KEY] ??= (async () => {
    const loc = stateLocation();
    return createSqlBulkStore(loc.kind === 'postgres' ? await postgresRunner(loc.where) : await sqliteRunner(loc.where));
  })();
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
