import 'server-only';

/**
 * Concurrent callers of the same read share one run: three pollers of one overview, or of one
 * list page with the same filter, cost one read of Redis. Keyed by the read and its parameters
 * (one table per adapter, so per broker); a run's result or error goes to every caller that
 * joined it, and the next call after it settles reads again (nothing is cached).
 */
export function singleFlight(): <T>(key: string, run: () => Promise<T>) => Promise<T> {
  const flights = new Map<string, Promise<unknown>>();
  return <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const going = flights.get(key);
    if (going) return going as Promise<T>;
    const p = run().finally(() => flights.delete(key));
    flights.set(key, p);
    return p;
  };
}
