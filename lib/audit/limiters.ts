import 'server-only';
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { getStateHandle, openStateHandle, type StateHandle } from '@/lib/state/handle';
import type { StateLocation } from '@/lib/state/location';

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

const TABLE = 'console_rate_limits';

/**
 * Makes limiters on the process's state store (or, given `location`, on a handle of their own,
 * closed by `close`); the first creates the table, the others wait for it.
 */
export function limiterFactory(location?: StateLocation): { make: (spec: LimiterSpec) => Promise<Limiter>; close: () => Promise<void> } {
  const own = location ? openStateHandle(location) : null;
  const handle: Promise<StateHandle> = own ? Promise.resolve(own) : getStateHandle();
  handle.catch(() => undefined);
  let first = true;
  let chain: Promise<unknown> = Promise.resolve();
  const make = (spec: LimiterSpec): Promise<Limiter> => {
    const clear = first;
    first = false;
    const next = chain.then(async () => {
      const client = await handle;
      return new Promise<Limiter>((resolve, reject) => {
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
      });
    });
    chain = next.catch(() => {});
    return next;
  };
  const close = async () => {
    if (own) await own.close();
  };
  return { make, close };
}
