import 'server-only';
import { processStateHandle, type StateHandle } from './handle';

/** `p`, or a rejection after `ms`; the timer never outlives the answer. */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Whether this process's state store answers a query (schema up to date) within `ms`: the
 * readiness of an instance (GET /api/health/ready). Brokers are not part of it: one broker
 * down is shown on the pages of every instance alike, and must not take them all out of a
 * load balancer's pool.
 */
export async function stateStoreAnswers(ms = 2_000, store: () => StateHandle = processStateHandle): Promise<boolean> {
  try {
    const h = store();
    await within(h.ready(), ms);
    if (h.kind === 'postgres') await within(h.pool.query('SELECT 1'), ms);
    else h.db.prepare('SELECT 1').get();
    return true;
  } catch {
    return false;
  }
}
