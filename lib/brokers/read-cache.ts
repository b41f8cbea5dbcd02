import 'server-only';

/**
 * Shared reads: identical broker reads asked while one is under way are answered by it
 * (single-flight), and a successful answer is kept for `ttlMs` for whoever asks the same read
 * next, so fifty open tabs polling the same pages cost the broker about what one does.
 *
 * - Keyed by broker and read (the caller's key names the read and its parameters).
 * - Bounded: least recently used answers go first past `maxEntries` or `maxBytes` (each answer
 *   weighed by its JSON length); one answer over a quarter of `maxBytes` is shared while it is
 *   in flight but not kept.
 * - Failures are never kept: the callers waiting on that read get the error, the next asks again.
 * - `invalidate(broker)` after a write: the broker's kept answers go, and a read that was under
 *   way when the write ended is not kept (its answer may predate the write) nor joined again.
 * - Answers are shared objects: callers must not change them (every consumer spreads).
 * - Below the gate: what is kept is broker data; who may see it, and what is hidden per role or
 *   redaction, is decided per request above the service.
 */

export interface ReadCacheOptions {
  /** How long an answer is reused, from when its read was asked; 0 turns sharing off. */
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
  now?: () => number;
}

export interface ReadCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  joined: number;
  misses: number;
}

export interface ReadCache {
  read<T>(brokerId: string, key: string, run: () => Promise<T>): Promise<T>;
  invalidate(brokerId: string): void;
  stats(): ReadCacheStats;
  clear(): void;
}

interface Kept {
  brokerId: string;
  value: unknown;
  bytes: number;
  expires: number;
}

interface Flight {
  brokerId: string;
  generation: string;
  promise: Promise<unknown>;
}

/** The JSON length of an answer (DTOs are JSON-safe); null when it cannot be weighed. */
function weigh(value: unknown): number | null {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return null;
  }
}

export function createReadCache(opts: ReadCacheOptions): ReadCache {
  const now = opts.now ?? Date.now;
  const kept = new Map<string, Kept>(); // insertion order = least recently used first
  const flights = new Map<string, Flight>();
  const generations = new Map<string, number>();
  let epoch = 0; // clear() forgets every broker's reads at once
  let bytes = 0;
  let hits = 0;
  let joined = 0;
  let misses = 0;

  const generationOf = (brokerId: string) => `${epoch}/${generations.get(brokerId) ?? 0}`;
  const drop = (k: string, e: Kept) => {
    kept.delete(k);
    bytes -= e.bytes;
  };

  function keep(k: string, brokerId: string, value: unknown, expires: number): void {
    const size = weigh(value);
    if (size === null || size > opts.maxBytes / 4 || expires <= now()) return;
    const old = kept.get(k);
    if (old) drop(k, old);
    kept.set(k, { brokerId, value, bytes: size, expires });
    bytes += size;
    for (const [oldest, e] of kept) {
      if (kept.size <= opts.maxEntries && bytes <= opts.maxBytes) break;
      drop(oldest, e);
    }
  }

  return {
    read<T>(brokerId: string, key: string, run: () => Promise<T>): Promise<T> {
      if (opts.ttlMs <= 0) return run();
      const k = `${brokerId}\u0000${key}`;
      const at = now();
      const hit = kept.get(k);
      if (hit && hit.expires > at) {
        hits++;
        kept.delete(k); // most recently used goes last
        kept.set(k, hit);
        return Promise.resolve(hit.value as T);
      }
      if (hit) drop(k, hit);
      const flight = flights.get(k);
      if (flight) {
        joined++;
        return flight.promise as Promise<T>;
      }
      misses++;
      const generation = generationOf(brokerId);
      const promise = run();
      flights.set(k, { brokerId, generation, promise });
      promise.then(
        (value) => {
          if (flights.get(k)?.promise === promise) flights.delete(k);
          if (generationOf(brokerId) === generation) keep(k, brokerId, value, at + opts.ttlMs);
        },
        () => {
          if (flights.get(k)?.promise === promise) flights.delete(k);
        },
      );
      return promise;
    },
    invalidate(brokerId: string): void {
      generations.set(brokerId, (generations.get(brokerId) ?? 0) + 1);
      for (const [k, e] of kept) if (e.brokerId === brokerId) drop(k, e);
      for (const [k, f] of flights) if (f.brokerId === brokerId) flights.delete(k);
    },
    stats: () => ({ entries: kept.size, bytes, hits, joined, misses }),
    clear(): void {
      epoch++;
      kept.clear();
      flights.clear();
      bytes = 0;
    },
  };
}

/** A stable text of a read's parameters: the same parameters give the same key whatever order
 *  their fields were written in; undefined fields are left out, as JSON leaves them. */
export function paramsKey(v: unknown): string {
  if (v === undefined) return '';
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}
