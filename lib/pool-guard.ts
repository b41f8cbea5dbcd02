import 'server-only';
import type { Pool } from 'pg';

// pg's Pool emits 'error' when an idle client's session ends under it (the server restarted, an
// administrator ran pg_terminate_backend, a proxy cut the connection). With no listener Node
// throws it as an uncaught exception and the console process dies, although the pool has
// already dropped that client and the next checkout opens a new one. So every pool the console
// creates for its own stores (audit, state, trends, rate limits) gets a listener that logs it.

/** `pool` with a listener for its idle clients' errors, logged as `console.store-connection-error`. */
export function guardPool<P extends Pick<Pool, 'on'>>(pool: P, store: string): P {
  pool.on('error', (e: Error & { code?: string }) => {
    // pg's own messages (terminated by administrator, connection reset) carry no credentials.
    console.error(JSON.stringify({ event: 'console.store-connection-error', store, code: e.code ?? null, message: e.message }));
  });
  return pool;
}
