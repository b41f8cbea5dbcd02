// Test helper (not shipped code): one fresh database per test on PostgreSQL 15 or MySQL 9, the
// loud skip when a server is absent, and a small query facade both suites share.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';

export const PG_URL = process.env.POTATOQ_CONSOLE_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const MYSQL_URL = process.env.POTATOQ_TEST_MYSQL_URL;

export type Dialect = 'postgres' | 'mysql';
export type Row = Record<string, unknown>;

export interface TestDb {
  dialect: Dialect;
  name: string;
  /** The URL the Go harness gets (same server, this test's database). */
  url: string;
  /** `$1` placeholders on PostgreSQL, `?` on MySQL. */
  query<R extends Row = Row>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Ends this handle's connections; the database stays. */
  close(): Promise<void>;
  drop(): Promise<void>;
}

const hide = (url: string) => url.replace(/\/\/[^@]*@/, '//***@');

/** True when the server answers; otherwise a loud line, or a failure when services are required. */
export async function serverAvailable(dialect: Dialect): Promise<boolean> {
  const url = dialect === 'postgres' ? PG_URL : MYSQL_URL;
  const what = dialect === 'postgres' ? 'PostgreSQL' : 'MySQL';
  let problem: string | null = null;
  if (!url) problem = 'POTATOQ_TEST_MYSQL_URL is not set (scripts/services.sh up mysql; scripts/services.sh env)';
  else {
    try {
      await withAdmin(dialect, url, (q) => q('SELECT 1'));
    } catch (e) {
      problem = `not reachable at ${hide(url)} (${(e as Error).message})`;
    }
  }
  if (!problem) return true;
  const line = `\n!!! ${what}: ${problem}: SKIPPING the Simple Durable Jobs ${what} suites !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return false;
}

type Query = (sql: string, params?: unknown[]) => Promise<Row[]>;

async function withAdmin<T>(dialect: Dialect, url: string, fn: (q: Query) => Promise<T>): Promise<T> {
  if (dialect === 'postgres') {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await c.connect();
    try {
      return await fn(async (sql, params) => (await c.query(sql, params)).rows as Row[]);
    } finally {
      await c.end().catch(() => undefined);
    }
  }
  const c = await mysql.createConnection({ uri: url, connectTimeout: 5000 });
  try {
    return await fn(async (sql, params) => (await c.query(sql, params))[0] as Row[]);
  } finally {
    await c.end().catch(() => undefined);
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const serverOf = (dialect: Dialect): string => {
  const server = dialect === 'postgres' ? PG_URL : MYSQL_URL;
  if (!server) throw new Error(`no ${dialect} URL configured`);
  return server;
};

/** A new, empty database on the dialect's server (named `name`, else a random one); `drop()` removes it. */
export async function createTestDb(dialect: Dialect, name = `sdjt_${randomBytes(5).toString('hex')}`): Promise<TestDb> {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a database name: ${name}`);
  await withAdmin(dialect, serverOf(dialect), (q) => q(`CREATE DATABASE ${name}`));
  return testDbOf(dialect, name);
}

/** A database that exists already (created by another process of the same run). */
export function testDbOf(dialect: Dialect, name: string): TestDb {
  const server = serverOf(dialect);
  const url = withDatabase(server, name);
  let pool: pg.Pool | mysql.Pool | null = null;
  const query = async <R extends Row = Row>(sql: string, params: unknown[] = []): Promise<R[]> => {
    if (dialect === 'postgres') {
      pool ??= new pg.Pool({ connectionString: url, max: 2 });
      return (await (pool as pg.Pool).query(sql, params)).rows as R[];
    }
    // The library requires a UTC session (its NOW(6) writes and DATETIME reads): so do we.
    pool ??= mysql.createPool({ uri: url, connectionLimit: 2, timezone: 'Z' });
    const conn = await (pool as mysql.Pool).getConnection();
    try {
      await conn.query("SET time_zone = '+00:00'");
      return (await conn.query(sql, params))[0] as R[];
    } finally {
      conn.release();
    }
  };
  return {
    dialect,
    name,
    url,
    query,
    async close() {
      await pool?.end().catch(() => undefined);
      pool = null;
    },
    async drop() {
      await pool?.end().catch(() => undefined);
      await withAdmin(dialect, server, (q) =>
        q(dialect === 'postgres' ? `DROP DATABASE IF EXISTS ${name} WITH (FORCE)` : `DROP DATABASE IF EXISTS ${name}`),
      );
    },
  };
}
