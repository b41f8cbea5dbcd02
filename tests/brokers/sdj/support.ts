// Test support: a fresh database per test with the recorded SDJ schema, and the console's store
// opened on it.
import { openSdjStore, type SdjOptions, type SdjStore } from '@/lib/brokers/sdj/store';
import pg from 'pg';
import { createTestDb, serverAvailable, type Dialect, type Row, type TestDb } from '@/tests/sdj/databases';
import { createSdjSchema, type LedgerState } from './schema-fixture';

export const DIALECTS: Dialect[] = ['postgres', 'mysql'];

/** Which servers answer (a loud line for each that does not). */
export async function availableDialects(): Promise<Record<Dialect, boolean>> {
  return { postgres: await serverAvailable('postgres'), mysql: await serverAvailable('mysql') };
}

export interface Sdj {
  db: TestDb;
  store: SdjStore;
  done(): Promise<void>;
}

/**
 * The test database with a PostgreSQL pool that listens for its clients' errors: `pg`'s
 * `Pool.end()` resolves before its sockets are closed, and the `DROP DATABASE … WITH (FORCE)`
 * that follows terminates them (57P01), which an unlistened pool throws into the next test.
 */
export function guarded(db: TestDb): TestDb {
  if (db.dialect !== 'postgres') return db;
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  return {
    ...db,
    query: async <R extends Row = Row>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as R[],
    async close() {
      await pool.end().catch(() => undefined);
    },
    async drop() {
      await pool.end().catch(() => undefined);
      await db.drop();
    },
  };
}

export async function freshSdj(dialect: Dialect, opts: { ledger?: LedgerState | 'none'; options?: SdjOptions } = {}): Promise<Sdj> {
  const db = guarded(await createTestDb(dialect));
  if (opts.ledger !== 'none') await createSdjSchema(db, opts.ledger ?? 'verified');
  const store = await openSdjStore(db.url, { lockWaitMs: 300, ...opts.options });
  return {
    db,
    store,
    async done() {
      await store.close().catch(() => undefined);
      await db.drop();
    },
  };
}
