import 'server-only';

/** A connection (or pool, or store) opened on first use and kept. */
export interface OpenOnce<T> {
  /** The open value; opens it when none is. A failed open is forgotten, so the next call
   *  tries again (a broker that is down at boot is read once it answers). */
  get(): T;
  /** Closes what is open (once it has opened; a failed open has nothing to close) and
   *  forgets it: the next `get` opens again. */
  close(): Promise<void>;
}

const isPromise = (x: unknown): x is Promise<unknown> => typeof (x as { then?: unknown } | null)?.then === 'function';

/**
 * Lazy open-once: nothing connects when the adapter is built, so one unreachable broker never
 * stops the console's boot. `open` may be synchronous (a SQLite file) or return a promise.
 */
export function openOnce<T>(open: () => T, close: (value: Awaited<T>) => unknown): OpenOnce<T> {
  let value: { v: T } | null = null;
  return {
    get() {
      if (value) return value.v;
      const entry = { v: open() };
      value = entry;
      if (isPromise(entry.v))
        entry.v.catch(() => {
          if (value === entry) value = null;
        });
      return entry.v;
    },
    async close() {
      const entry = value;
      value = null;
      if (!entry) return;
      if (!isPromise(entry.v)) {
        await close(entry.v as Awaited<T>);
        return;
      }
      const opened = await entry.v.then(
        (v) => ({ v: v as Awaited<T> }),
        () => null,
      );
      if (opened) await close(opened.v);
    },
  };
}

/** An answer kept for a while (a capabilities probe, a server check). */
export interface Cached<T> {
  /** The kept answer while it is younger than the TTL, else a new one. A failed answer is
   *  forgotten at once, so the next call asks again. */
  get(): Promise<T>;
  /** Drops the kept answer (a write was refused: privileges changed since the probe). */
  forget(): void;
}

export function cachedFor<T>(ttlMs: number, load: () => Promise<T>): Cached<T> {
  let kept: { at: number; value: Promise<T> } | null = null;
  return {
    get() {
      if (!kept || Date.now() - kept.at > ttlMs) {
        const entry = { at: Date.now(), value: load() };
        kept = entry;
        entry.value.catch(() => {
          if (kept === entry) kept = null;
        });
      }
      return kept.value;
    },
    forget() {
      kept = null;
    },
  };
}
