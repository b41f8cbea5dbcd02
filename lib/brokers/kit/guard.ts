import 'server-only';
import { reasonOf } from './results';

/** A system's failure as the console's error (lib/brokers/errors.ts); `write`: it happened
 *  during a write, where a timeout may mean "maybe applied". A ConsoleError passes unchanged. */
export type MapError = (e: unknown, write: boolean) => unknown;

export interface GuardOptions {
  /** Runs before every call, inside the mapping: a server check that refuses everything (Redis
   *  Cluster), a probe. Absent: the call starts at once (synchronous work stays synchronous). */
  ready?: () => unknown;
  /** Sees every mapped failure: an adapter drops a connection the error says is gone. */
  failed?: (mapped: unknown) => void;
}

export interface Guard {
  /** A read: every failure leaves as the console's error. */
  read<T>(fn: () => T | Promise<T>): Promise<T>;
  /** A write: as `read`, mapped as a write. */
  act<T>(fn: () => T | Promise<T>): Promise<T>;
  /** A failure's mapped text, for the per-id reason of the ids a failed batch leaves undone. */
  describe(e: unknown): string;
}

/**
 * The one door of an adapter's calls to its system: a failure of the driver is mapped once,
 * by the adapter's own `mapError` (its timeouts, its words for an unreachable store), so no
 * driver error (or URL in one) reaches the service.
 */
export function guarded(mapError: MapError, opts: GuardOptions = {}): Guard {
  async function run<T>(fn: () => T | Promise<T>, write: boolean): Promise<T> {
    try {
      if (opts.ready) await opts.ready();
      return await fn();
    } catch (e) {
      const mapped = mapError(e, write);
      opts.failed?.(mapped);
      throw mapped;
    }
  }
  return {
    read: (fn) => run(fn, false),
    act: (fn) => run(fn, true),
    describe: (e) => reasonOf(mapError(e, true)),
  };
}
