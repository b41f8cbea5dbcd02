import 'server-only';
import { stateLocation } from '@/lib/audit/store';
import type { TrendStore } from './store-sql';

// Opens the trend store on the console's state store; the shapes and the SQL both stores share
// are in store-sql.ts (a leaf: the two stores import it, not this opener that loads them).
export * from './store-sql';

const STORE = Symbol.for('potatoq.console.trendStore');
type Global = typeof globalThis & { [STORE]?: Promise<TrendStore> };

/** The process's trend store in POTATOQ_CONSOLE_STATE (opened once, lazily). */
export function getTrendStore(): Promise<TrendStore> {
  const g = globalThis as Global;
  g[STORE] ??= (async () => {
    const loc = stateLocation();
    if (loc.kind === 'postgres') return (await import('./store-postgres')).createPostgresTrendStore(loc.where);
    return (await import('./store-sqlite')).createSqliteTrendStore(loc.where);
  })();
  g[STORE].catch(() => {
    delete g[STORE];
  });
  return g[STORE];
}
