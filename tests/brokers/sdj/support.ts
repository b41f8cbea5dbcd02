// Test support: a fresh database per test with the recorded SDJ schema, and the console's store
// opened on it.
import { openSdjStore, type SdjOptions, type SdjStore } from '@/lib/brokers/sdj/store';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from '@/tests/sdj/databases';
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

export async function freshSdj(dialect: Dialect, opts: { ledger?: LedgerState | 'none'; options?: SdjOptions } = {}): Promise<Sdj> {
  const db = await createTestDb(dialect);
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
