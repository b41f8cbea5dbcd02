import 'server-only';
import type { ClientBase } from 'pg';
import { ConsoleError } from '@/lib/brokers/errors';
import type { SdjDialect, SdjTarget } from './url';

// One small facade over PostgreSQL (`pg`) and MySQL (`mysql2`), so every SDJ query is written
// once: `?` placeholders (numbered for PostgreSQL here), ids bound as the schema stores them
// (native `uuid` on PostgreSQL, the 16 RFC 4122 bytes of `binary(16)` on MySQL) and timestamps
// read as the database's own text, never through a JS Date: PostgreSQL keeps microseconds, and a
// keyset cursor that lost them would skip or repeat rows. MySQL sessions run on UTC
// (`time_zone = '+00:00'`), as the library's `Migrate()` insists, so `NOW(6)` and DATETIME(3)
// values mean what the library means.

export type Row = Record<string, unknown>;

export interface SdjQuery {
  all<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Rows changed (PostgreSQL `rowCount`, MySQL `affectedRows`). */
  run(sql: string, params?: unknown[]): Promise<number>;
}

export interface SdjDb extends SdjQuery {
  dialect: SdjDialect;
  /** One transaction on one connection; SERIALIZABLE when asked. Rolled back on any throw. */
  tx<T>(fn: (q: SdjQuery) => Promise<T>, opts?: { serializable?: boolean }): Promise<T>;
  close(): Promise<void>;
}

export interface SdjDbOptions {
  /** How long a row lock is waited for before the write is refused (MySQL rounds up to seconds). */
  lockWaitMs: number;
  /** PostgreSQL schema holding the tables (`search_path`); the MySQL database is the URL's path. */
  schema?: string;
}

/** A job id as a bind parameter of this dialect. */
export function idParam(dialect: SdjDialect, id: string): string | Buffer {
  return dialect === 'postgres' ? id : Buffer.from(id.replace(/-/g, ''), 'hex');
}

/** A `uuid` / `binary(16)` value as the canonical UUID text, or null. */
export function idText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) {
    if (v.length !== 16) return null;
    return v.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  }
  const s = String(v);
  return s === '' ? null : s.toLowerCase();
}

/** A database timestamp text (`2026-01-02 03:04:05.123456+00` or `… 03:04:05.123`) as ISO 8601 UTC. */
export function isoOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:Z|[+-]00(?::?00)?)?$/.exec(s);
  return m ? `${m[1]}T${m[2]}Z` : s;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

type DriverError = Error & { code?: string; errno?: number };

/** Connection-level failures become BrokerUnavailable; anything else is rethrown as is. */
export function unavailable(e: unknown, what: string): never {
  const err = e as DriverError;
  throw new ConsoleError(
    'BrokerUnavailable',
    `${what} is not reachable: ${err.code ?? ''} ${err.message ?? String(e)}`.replace(/\s+/g, ' '),
  );
}

interface Conn {
  query(sql: string): Promise<unknown>;
}

/** Runs `fn` between the `begin` statements and COMMIT on one connection; ROLLBACK on a throw. */
async function inTx<T>(c: Conn, begin: string[], fn: () => Promise<T>, release: () => void): Promise<T> {
  try {
    for (const s of begin) await c.query(s);
    const out = await fn();
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    release();
  }
}

/** The pool's first query: a database that does not answer ends the pool and reads as unavailable. */
async function reachable(pool: Conn & { end(): Promise<void> }, what: string): Promise<void> {
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    await pool.end().catch(() => undefined);
    unavailable(e, what);
  }
}

async function openPostgres(t: SdjTarget, o: SdjDbOptions): Promise<SdjDb> {
  const { default: pg } = await import('pg');
  const raw = (v: string) => v;
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      // timestamptz, timestamp: keep the text (microseconds); everything else as pg parses it.
      oid === 1184 || oid === 1114 ? raw : pg.types.getTypeParser(oid, format as 'text'),
  };
  const setup = [`SET TIME ZONE 'UTC'`, ...(o.schema ? [`SET search_path TO ${quoteIdent(o.schema)}`] : [])];
  // The session settings run, awaited, before the pool hands a new connection to anyone (a
  // failure ends that connection and fails the caller's query), so no query overlaps them.
  const onConnect = async (c: ClientBase) => {
    for (const s of setup) await c.query(s);
  };
  const pool = new pg.Pool({
    connectionString: t.url,
    max: 4,
    connectionTimeoutMillis: 5_000,
    types: types as never,
    onConnect,
  });
  pool.on('error', () => undefined); // an idle client's session ended; the pool replaces it
  const on = (c: { query: (s: string, p?: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }> }): SdjQuery => ({
    all: async <T extends Row>(sql: string, p: unknown[] = []) => (await c.query(numbered(sql), p)).rows as T[],
    run: async (sql: string, p: unknown[] = []) => (await c.query(numbered(sql), p)).rowCount ?? 0,
  });
  await reachable(pool, `PostgreSQL at ${t.host}:${t.port}`);
  return {
    dialect: 'postgres',
    ...on(pool),
    async tx(fn, opts) {
      const c = await pool.connect();
      const begin = [
        opts?.serializable ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN',
        `SET LOCAL lock_timeout = '${Math.max(1, Math.round(o.lockWaitMs))}ms'`,
      ];
      return inTx(
        c,
        begin,
        () => fn(on(c)),
        () => c.release(),
      );
    },
    close: () => pool.end(),
  };
}

async function openMysql(t: SdjTarget, o: SdjDbOptions): Promise<SdjDb> {
  const { default: mysql } = await import('mysql2/promise');
  const u = new URL(t.url);
  const pool = mysql.createPool({
    host: t.host,
    port: t.port,
    user: t.user,
    password: t.password,
    database: t.database,
    connectionLimit: 4,
    connectTimeout: Number(u.searchParams.get('connectTimeout') ?? 5_000),
    ...(u.searchParams.get('ssl') === 'true' ? { ssl: {} } : {}),
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  const wait = Math.max(1, Math.ceil(o.lockWaitMs / 1000));
  pool.on('connection', (c) => {
    // Queued ahead of any query this connection will run. The event hands over the callback
    // connection (mysql2 inherits it unwrapped), so a failure goes to the callback, not to an
    // unhandled rejection; the query after it reports the connection's trouble.
    const core = c as unknown as { query(sql: string, cb: (e: unknown) => void): void };
    core.query(`SET time_zone = '+00:00', SESSION innodb_lock_wait_timeout = ${wait}`, () => undefined);
  });
  const on = (c: { query: (s: string, p?: unknown[]) => Promise<[unknown, unknown]> }): SdjQuery => ({
    all: async <T extends Row>(sql: string, p: unknown[] = []) => (await c.query(sql, p))[0] as T[],
    run: async (sql: string, p: unknown[] = []) => ((await c.query(sql, p))[0] as { affectedRows?: number }).affectedRows ?? 0,
  });
  await reachable(pool, `MySQL at ${t.host}:${t.port}`);
  return {
    dialect: 'mysql',
    ...on(pool as never),
    async tx(fn, opts) {
      const c = await pool.getConnection();
      const begin = [...(opts?.serializable ? ['SET TRANSACTION ISOLATION LEVEL SERIALIZABLE'] : []), 'START TRANSACTION'];
      return inTx(
        c,
        begin,
        () => fn(on(c as never)),
        () => c.release(),
      );
    },
    close: () => pool.end(),
  };
}

function quoteIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

export function openSdjDb(t: SdjTarget, o: SdjDbOptions): Promise<SdjDb> {
  return t.dialect === 'postgres' ? openPostgres(t, o) : openMysql(t, o);
}

/** A lock wait that ran out: PostgreSQL 55P03, MySQL 1205. */
export const isLockTimeout = (e: unknown) => {
  const err = e as DriverError;
  return err?.code === '55P03' || err?.errno === 1205;
};
/** A serialization failure or deadlock the transaction may be retried after. */
export const isRetryable = (e: unknown) => {
  const err = e as DriverError;
  return err?.code === '40001' || err?.code === '40P01' || err?.errno === 1213;
};
/** A unique index refused the write: PostgreSQL 23505, MySQL 1062. */
export const isUniqueViolation = (e: unknown) => {
  const err = e as DriverError;
  return err?.code === '23505' || err?.errno === 1062;
};
/** The table is not there: PostgreSQL 42P01, MySQL 1146. */
export const isNoTable = (e: unknown) => {
  const err = e as DriverError;
  return err?.code === '42P01' || err?.errno === 1146;
};
