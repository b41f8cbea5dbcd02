import 'server-only';
import { processStateHandle } from '@/lib/state/handle';
import type { TrendStore } from './store-sql';

// Opens the trend store on the console's state store (lib/state, one handle per process); the shapes and the SQL both stores share
// are in store-sql.ts (a leaf: the two stores import it, not this opener that loads them).
export * from './store-sql';

const STORE = Symbol.for('potatoq.console.trendStore');
type Global = typeof globalThis & { [STORE]?: Promise<TrendStore> };

/** The process's trend store in POTATOQ_CONSOLE_STATE (opened once, lazily). */
export function getTrendStore(): Promise<TrendStore> {
  const g = globalThis as Global;
  g[STORE] ??= (async () => {
    const h = processStateHandle();
    if (h.kind === 'postgres') return (await import('./store-postgres')).createPostgresTrendStore(h);
    return (await import('./store-sqlite')).createSqliteTrendStore(h);
  })();
  g[STORE].catch(() => {
    delete g[STORE];
  });
  return g[STORE];
}
