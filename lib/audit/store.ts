import 'server-only';
import { processStateHandle } from '@/lib/state/handle';
import type { AuditStore } from './types';

// The audit trail in the console's state store (lib/state), opened lazily, once per process.
export { stateLocation } from '@/lib/state/location';

const STORE = Symbol.for('potatoq.console.auditStore');
type Global = typeof globalThis & { [STORE]?: Promise<AuditStore> };

export function getAuditStore(): Promise<AuditStore> {
  const g = globalThis as Global;
  g[STORE] ??= (async () => {
    const h = processStateHandle();
    if (h.kind === 'postgres') return (await import('./postgres')).createPostgresAuditStore(h);
    return (await import('./sqlite')).createSqliteAuditStore(h);
  })();
  g[STORE].catch(() => {
    delete g[STORE];
  });
  return g[STORE];
}

/** Tests only. */
export function setAuditStoreForTests(store: AuditStore | null): void {
  const g = globalThis as Global;
  if (store) g[STORE] = Promise.resolve(store);
  else delete g[STORE];
}
