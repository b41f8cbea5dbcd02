import 'server-only';
import path from 'node:path';
import { ConfigError } from '@/lib/config-error';
import type { AuditStore } from './types';

/**
 * The console's own state store: `POTATOQ_CONSOLE_STATE` is a file path (SQLite, the default
 * `.data/console-state.sqlite3`) or a `postgresql://` URL when several console instances share
 * one trail. Opened lazily, once per process.
 */
export function stateLocation(env: Record<string, string | undefined> = process.env): { kind: 'sqlite' | 'postgres'; where: string } {
  const raw = env.POTATOQ_CONSOLE_STATE?.trim();
  // Unit tests that reach the gate must not write into the checkout's .data/.
  if (!raw && env.VITEST) return { kind: 'sqlite', where: ':memory:' };
  if (!raw) return { kind: 'sqlite', where: path.resolve(process.cwd(), '.data', 'console-state.sqlite3') };
  if (/^postgres(ql)?:\/\//i.test(raw)) return { kind: 'postgres', where: raw };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && !raw.startsWith('sqlite://')) {
    throw new ConfigError('POTATOQ_CONSOLE_STATE: must be a file path, sqlite:///path or postgresql:// URL');
  }
  return { kind: 'sqlite', where: raw === ':memory:' ? raw : path.resolve(raw.replace(/^sqlite:\/\//, '')) };
}

const STORE = Symbol.for('potatoq.console.auditStore');
type Global = typeof globalThis & { [STORE]?: Promise<AuditStore> };

export function getAuditStore(): Promise<AuditStore> {
  const g = globalThis as Global;
  g[STORE] ??= (async () => {
    const loc = stateLocation();
    if (loc.kind === 'postgres') return (await import('./postgres')).createPostgresAuditStore(loc.where);
    return (await import('./sqlite')).createSqliteAuditStore(loc.where);
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
