import 'server-only';
import { getStateDb, openStateDbForTests } from '@/lib/state/sql';
import { createSqlBulkStore } from './store-sql';
import type { BulkStore } from './store';

// The bulk jobs on the console's state store (lib/state: one handle per process).
export { getStateDb, openStateDbForTests, runnerOf } from '@/lib/state/sql';

const KEY = Symbol.for('potatoq.console.bulkStore');
type Global = typeof globalThis & { [KEY]?: Promise<BulkStore> };

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
