import 'server-only';
import { getStateDb, openStateDbForTests } from '@/lib/state/sql';
import { createCampaignStore, type CampaignStore } from './store';

// The campaigns on the console's state store (lib/state: one handle per process).

const KEY = Symbol.for('potatoq.console.campaignStore');
type Global = typeof globalThis & { [KEY]?: Promise<CampaignStore> };

export function getCampaignStore(): Promise<CampaignStore> {
  const g = globalThis as Global;
  g[KEY] ??= getStateDb().then(createCampaignStore);
  g[KEY].catch(() => {
    delete g[KEY];
  });
  return g[KEY];
}

/** Tests only. */
export function setCampaignStoreForTests(store: CampaignStore | null): void {
  const g = globalThis as Global;
  if (store) g[KEY] = Promise.resolve(store);
  else delete g[KEY];
}

/** A private store in a temp or in-memory SQLite file, for tests. */
export async function openSqliteCampaignStore(file: string): Promise<CampaignStore> {
  return createCampaignStore(await openStateDbForTests(file));
}
