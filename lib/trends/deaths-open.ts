import 'server-only';
import { getStateDb } from '@/lib/state/sql';
import { createDeathStore, type DeathStore } from './deaths-store';

const KEY = Symbol.for('potatoq.console.deathStore');
type Global = typeof globalThis & { [KEY]?: Promise<DeathStore> };

/** The recorded deaths on the process's state store (opened once; retried after a failure). */
export function getDeathStore(): Promise<DeathStore> {
  const g = globalThis as Global;
  g[KEY] ??= getStateDb().then(createDeathStore);
  g[KEY].catch(() => {
    delete g[KEY];
  });
  return g[KEY];
}
