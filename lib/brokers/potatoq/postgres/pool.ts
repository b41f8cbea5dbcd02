import 'server-only';
import pg from 'pg';
import { isConnectionError, isRetryableTx, mapPgError } from './errors';
import type { PgNames } from './names';

export interface PoolSettings {
  url: string;
  brokerId: string;
  readPoolSize: number;
  writePoolSize: number;
  statementTimeoutMs: number;
  writeStatementTimeoutMs: number;
  lockTimeoutMs: number;
  connectTimeoutMs: number;
}

/** What reads and writes run on: a plain query function bound to one connection. */
export type Sql = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

export interface PgDb {
  /** Autocommit reads on the read-only pool; retried once on a fresh connection if the
   *  server went away (restart, failover) since the connection was opened. */
  read<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** One transaction on the write pool. Retried when PostgreSQL rolled it back for us
   *  (deadlock, serialization) or the connection broke before COMMIT was sent. */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Settings of every read session. They make the planner take potatoq's indexes whatever its
 * statistics say: on a live table (claimed and retried rows rewritten at the heap's end,
 * visibility map mostly unset, statistics stale) a `LIMIT` query it believes cheap as a
 * sequential scan can filter a million rows first, and a bitmap scan reads every matching
 * entry before a LIMIT can stop it. Every console read has an index path, walked in the
 * index's order and stopped early (postgres-plans.int.test.ts checks the plans); a table
 * without a usable index (workers) is still scanned.
 */
export const READ_SESSION_SETTINGS = { default_transaction_read_only: 'on', enable_seqscan: 'off', enable_bitmapscan: 'off' } as const;

const bind =
  (c: pg.PoolClient): Sql =>
  async (text, params) =>
    (await c.query(text, params)).rows;

/**
 * Two small pools that cannot hurt production: every session carries `statement_timeout`,
 * `lock_timeout` and `idle_in_transaction_session_timeout`, and names itself in
 * `pg_stat_activity`; the read pool's sessions are `default_transaction_read_only`, so a bug
 * in a read can never write. No transaction spans an await outside `tx`.
 */
export function createPgDb(s: PoolSettings, names: PgNames): PgDb {
  const timeouts = { statementMs: s.statementTimeoutMs, lockMs: s.lockTimeoutMs };
  const base: pg.PoolConfig = {
    connectionString: s.url,
    application_name: `potatoq-console ${s.brokerId}`.slice(0, 63),
    lock_timeout: s.lockTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(5000, s.writeStatementTimeoutMs),
    connectionTimeoutMillis: s.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  };
  let readPool: pg.Pool | null = null;
  let writePool: pg.Pool | null = null;
  const quiet = (p: pg.Pool) => {
    // An idle session killed by a server restart must not crash the process; the pool
    // drops that client and the next checkout opens a new one.
    p.on('error', () => undefined);
    return p;
  };
  const reads = () =>
    (readPool ??= quiet(
      new pg.Pool({
        ...base,
        max: s.readPoolSize,
        statement_timeout: s.statementTimeoutMs,
        options: Object.entries(READ_SESSION_SETTINGS)
          .map(([k, v]) => `-c ${k}=${v}`)
          .join(' '),
      }),
    ));
  const writes = () => (writePool ??= quiet(new pg.Pool({ ...base, max: s.writePoolSize, statement_timeout: s.writeStatementTimeoutMs })));
  const fail = (e: unknown) => mapPgError(e, names, timeouts);

  async function once<T>(pool: pg.Pool, fn: (sql: Sql) => Promise<T>, transaction: boolean): Promise<T> {
    const client = await pool.connect();
    let broken: unknown;
    let committing = false;
    try {
      if (!transaction) return await fn(bind(client));
      await client.query('BEGIN');
      const out = await fn(bind(client));
      committing = true;
      await client.query('COMMIT');
      return out;
    } catch (e) {
      if (isConnectionError(e)) broken = e;
      else if (transaction) await client.query('ROLLBACK').catch((r: unknown) => (broken = r));
      if (committing && broken) (e as { ambiguousCommit?: boolean }).ambiguousCommit = true;
      throw e;
    } finally {
      client.release(broken instanceof Error ? broken : broken ? true : undefined);
    }
  }

  async function run<T>(pool: () => pg.Pool, fn: (sql: Sql) => Promise<T>, transaction: boolean): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(pool(), fn, transaction);
      } catch (e) {
        const ambiguous = (e as { ambiguousCommit?: boolean } | null)?.ambiguousCommit === true;
        const again = attempt < 2 && ((isConnectionError(e) && !ambiguous) || (transaction && isRetryableTx(e)));
        if (!again) throw fail(e);
      }
    }
  }

  return {
    read: (fn) => run(reads, fn, false),
    tx: (fn) => run(writes, fn, true),
    async close() {
      const pools = [readPool, writePool];
      readPool = writePool = null;
      await Promise.allSettled(pools.map((p) => p?.end()));
    },
  };
}
