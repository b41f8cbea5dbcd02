import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { guardPool } from '@/lib/pool-guard';
import { locationOf, stateLocation, type StateLocation } from './location';
import { migratePostgres, migrateSqlite } from './migrate';

/**
 * The console's own state store, opened once per process: one SQLite handle or one pg Pool,
 * shared by the audit trail, the bulk jobs, the move journal, the leases, the trends and the
 * sign-in rate limits. `ready()` resolves once the schema is up to date (lib/state/migrate.ts).
 */
export type StateHandle = SqliteHandle | PostgresHandle;

interface Base {
  where: string;
  /** Resolves once the schema steps ran (or were already recorded); retried after a failure. */
  ready(): Promise<void>;
  close(): Promise<void>;
}
export interface SqliteHandle extends Base {
  kind: 'sqlite';
  db: Database.Database;
}
export interface PostgresHandle extends Base {
  kind: 'postgres';
  pool: Pool;
}

function openSqlite(file: string): SqliteHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // WAL so pages read while actions write.
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // A commit is on disk before it returns, also in WAL mode: the move journal's write-ahead
  // row must outlive a crash (or a power cut) right after the task was sent.
  db.pragma('synchronous = FULL');
  try {
    migrateSqlite(db);
  } catch (e) {
    db.close();
    throw e;
  }
  return { kind: 'sqlite', where: file, db, ready: () => Promise.resolve(), close: async () => void db.close() };
}

function openPostgres(url: string): PostgresHandle {
  // One pool for every table of the store; a store that does not answer fails a call within
  // seconds instead of holding it.
  const pool = guardPool(new Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 }), 'state');
  let migrated: Promise<void> | null = null;
  return {
    kind: 'postgres',
    where: url,
    pool,
    ready: () =>
      (migrated ??= migratePostgres(pool).then(
        () => undefined,
        (e: unknown) => {
          migrated = null;
          throw e;
        },
      )),
    close: () => pool.end(),
  };
}

/** A handle of its own on `where` (a location, or a string: a `postgresql://` URL or a SQLite file). */
export function openStateHandle(where: StateLocation | string): StateHandle {
  const loc = typeof where === 'string' ? locationOf(where) : where;
  return loc.kind === 'postgres' ? openPostgres(loc.where) : openSqlite(loc.where);
}

/** `x` as a handle, and whether the caller opened it (and so closes it). */
export function borrowOrOpen<K extends StateHandle['kind']>(
  x: string | Extract<StateHandle, { kind: K }>,
  kind: K,
): { handle: Extract<StateHandle, { kind: K }>; owned: boolean } {
  if (typeof x !== 'string') return { handle: x, owned: false };
  const h = openStateHandle(kind === 'postgres' ? { kind: 'postgres', where: x } : { kind: 'sqlite', where: x });
  return { handle: h as Extract<StateHandle, { kind: K }>, owned: true };
}

const KEY = Symbol.for('potatoq.console.stateHandle');
type Global = typeof globalThis & { [KEY]?: StateHandle };

/**
 * The process's state store (POTATOQ_CONSOLE_STATE), opened once. Its schema may not be up to
 * date yet on PostgreSQL (a database down at boot): a store built on it awaits `ready()` before
 * each call, which retries, so the console starts and catches up when the database answers.
 * Throws for a bad location or a SQLite file that cannot be opened (nothing is kept then).
 */
export function processStateHandle(): StateHandle {
  const g = globalThis as Global;
  return (g[KEY] ??= openStateHandle(stateLocation()));
}

/** The process's state store with its schema up to date; rejects (and is retried at the next call) while it cannot be. */
export async function getStateHandle(): Promise<StateHandle> {
  const h = processStateHandle();
  await h.ready();
  return h;
}
