import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConsoleError } from '@/lib/brokers/errors';

/** The tables the console reads; potatoq's `setup()` (`potatoq migrate`) creates them. */
export const REQUIRED_TABLES = ['potatoq_jobs', 'potatoq_results', 'potatoq_dead', 'potatoq_workers'] as const;

// potatoq's PRAGMAS, except busy_timeout: better-sqlite3 is synchronous, so a 30 s wait for
// the write lock would freeze every request of the server. Workers hold it for milliseconds.
const PRAGMAS = ['synchronous=NORMAL', 'cache_size=-32000', 'temp_store=MEMORY', 'journal_size_limit=67108864', 'secure_delete=OFF'];
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface Connections {
  /** Reads only (`query_only`), so a bug can never write through it. */
  read: Database.Database;
  /** Writes, each in `BEGIN IMMEDIATE`; null when the file can't be written. */
  write: Database.Database | null;
  /** Why writes are off, when they are. */
  readOnlyWhy: string | null;
  busyTimeoutMs: number;
}

function configure(db: Database.Database, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout=${busyTimeoutMs}`);
  for (const p of PRAGMAS) db.pragma(p);
}

function writableWhy(file: string): string | null {
  try {
    fs.accessSync(file, fs.constants.W_OK);
  } catch {
    return 'the database file is read-only for the console';
  }
  try {
    // WAL needs to create -wal/-shm files next to the database.
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
  } catch {
    return "the database's directory is read-only for the console (SQLite needs it for its WAL files)";
  }
  return null;
}

/**
 * Opens potatoq's database without ever creating it or its tables: a missing file is
 * BrokerUnavailable, missing tables are NotMigrated.
 */
export function openConnections(file: string, opts: { readOnly: boolean; busyTimeoutMs: number }): Connections {
  const base = path.basename(file);
  if (!fs.existsSync(file)) throw new ConsoleError('BrokerUnavailable', `database file not found: ${base}`);
  const fsWhy = writableWhy(file);
  const readOnlyWhy = opts.readOnly ? 'configured read-only' : fsWhy;
  let read: Database.Database | null = null;
  let write: Database.Database | null = null;
  try {
    // A read-write handle even for reads when possible: SQLite may need to create the WAL
    // index. `query_only` keeps it from writing.
    read = new Database(file, { fileMustExist: true, readonly: fsWhy !== null });
    configure(read, opts.busyTimeoutMs);
    read.pragma('query_only=1');
    const present = new Set(
      read.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'potatoq\\_%' ESCAPE '\\'`).pluck().all() as string[],
    );
    const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
    if (missing.length) {
      throw new ConsoleError('NotMigrated', `potatoq's tables are not in this database (${base}): run \`potatoq migrate\``);
    }
    if (readOnlyWhy === null) {
      write = new Database(file, { fileMustExist: true });
      configure(write, opts.busyTimeoutMs);
    }
    return { read, write, readOnlyWhy, busyTimeoutMs: opts.busyTimeoutMs };
  } catch (e) {
    read?.close();
    write?.close();
    throw mapSqliteError(e, base);
  }
}

/** Driver errors as console errors with an actionable message. */
export function mapSqliteError(e: unknown, base: string, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): unknown {
  if (e instanceof ConsoleError) return e;
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return new ConsoleError(
        'BrokerTimeout',
        `the database ${base} is locked: another process held it for more than ${busyTimeoutMs / 1000}s; try again`,
      );
    }
    if (code === 'SQLITE_NOTADB') return new ConsoleError('BrokerUnavailable', `${base} is not a SQLite database`);
    if (code.startsWith('SQLITE_CANTOPEN'))
      return new ConsoleError('BrokerUnavailable', `cannot open the database file ${base}: ${message}`);
    if (code.startsWith('SQLITE_READONLY')) return new ConsoleError('ReadOnly', `the database ${base} is read-only: ${message}`);
    if (code === 'SQLITE_ERROR' && /no such table/.test(message)) {
      return new ConsoleError('NotMigrated', `potatoq's tables are not in this database (${base}): run \`potatoq migrate\``);
    }
    return new ConsoleError('BrokerUnavailable', `SQLite error on ${base}: ${message}`);
  }
  return e;
}
