import 'server-only';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { stateLocation } from './store';
import { guardPool } from '@/lib/pool-guard';

/**
 * Rate-limiter counters (rate-limiter-flexible) kept in the console's state store, so every
 * console instance sharing one PostgreSQL state store shares the counts. One table,
 * `console_rate_limits`, keys prefixed per limiter; expired rows are deleted by time only,
 * never because the table grew. Each counter is one atomic upsert.
 */

export interface LimiterSpec {
  keyPrefix: string;
  points: number;
  /** Seconds; consume() may pass a customDuration instead. */
  duration: number;
}

export type Limiter = RateLimiterStoreAbstract;

type Client = { kind: 'sqlite'; db: Database.Database } | { kind: 'postgres'; pool: Pool };

const TABLE = 'console_rate_limits';

function openClient(location: { kind: 'sqlite' | 'postgres'; where: string }): Client {
  if (location.kind === 'postgres')
    return { kind: 'postgres', pool: guardPool(new Pool({ connectionString: location.where, max: 2 }), 'rate-limits') };
  const db = new Database(location.where);
  if (location.where !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  return { kind: 'sqlite', db };
}

/** Makes limiters on one connection; the first creates the table, the others wait for it. */
export function limiterFactory(location = stateLocation()): { make: (spec: LimiterSpec) => Promise<Limiter>; close: () => Promise<void> } {
  const client = openClient(location);
  let first = true;
  let chain: Promise<unknown> = Promise.resolve();
  const make = (spec: LimiterSpec): Promise<Limiter> => {
    const clear = first;
    first = false;
    const next = chain.then(
      () =>
        new Promise<Limiter>((resolve, reject) => {
          const opts = {
            keyPrefix: spec.keyPrefix,
            points: spec.points,
            duration: spec.duration,
            tableName: TABLE,
            clearExpiredByTimeout: clear,
          };
          // eslint-disable-next-line prefer-const -- declared before the callback that resolves with it
          let limiter: Limiter;
          const ready = (err?: Error) => (err ? reject(err) : resolve(limiter));
          limiter =
            client.kind === 'sqlite'
              ? new RateLimiterSQLite({ ...opts, storeClient: client.db, storeType: 'better-sqlite3' }, ready)
              : new RateLimiterPostgres({ ...opts, storeClient: client.pool, storeType: 'pool' }, ready);
        }),
    );
    chain = next.catch(() => {});
    return next;
  };
  const close = async () => {
    if (client.kind === 'sqlite') client.db.close();
    else await client.pool.end();
  };
  return { make, close };
}
