import 'server-only';
import path from 'node:path';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';

export interface StateLocation {
  kind: 'sqlite' | 'postgres';
  where: string;
}

/**
 * Where the console's own state store is: `POTATOQ_CONSOLE_STATE` is a file path (SQLite, the
 * default `.data/console-state.sqlite3`) or a `postgresql://` URL when several console
 * instances share one store.
 */
export function stateLocation(env: Record<string, string | undefined> = consoleEnv()): StateLocation {
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

/** A location given as a string: a `postgresql://` URL, else a SQLite file (or `:memory:`). */
export const locationOf = (where: string): StateLocation =>
  /^postgres(ql)?:\/\//i.test(where) ? { kind: 'postgres', where } : { kind: 'sqlite', where };
