'use client';
import { createContext, useCallback, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';

/** Live data polls every 5 s unless the operator pauses it (e.g. to read a long list). */
export const POLL_MS = 5000;

/** The meta of every polled query: the header's "as of" and stale marks read only these. */
export const LIVE = { live: true } as const;

/** Where this browser remembers a pause, so a reload stays paused (one choice per browser, not per user). */
export const PAUSE_KEY = 'potatoq-console.paused';
const CHANGED = 'potatoq-console:paused';

interface RefreshState {
  paused: boolean;
  setPaused: (paused: boolean) => void;
}

const RefreshContext = createContext<RefreshState>({ paused: false, setPaused: () => {} });

// Where storage is refused (a locked-down browser), the choice lasts until the page reloads.
let unstored = false;

function readPaused(): boolean {
  try {
    return window.localStorage.getItem(PAUSE_KEY) === '1';
  } catch {
    return unstored;
  }
}

function subscribe(onChange: () => void): () => void {
  // Another tab's choice arrives as `storage`; this tab's own as CHANGED.
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** Paused or live, remembered in this browser. The server and the hydrating render say live (no
 *  storage there); the stored choice applies right after, without a hydration mismatch. */
export function RefreshProvider({ children }: { children: ReactNode }) {
  const paused = useSyncExternalStore(subscribe, readPaused, () => false);
  const setPaused = useCallback((v: boolean) => {
    try {
      if (v) window.localStorage.setItem(PAUSE_KEY, '1');
      else window.localStorage.removeItem(PAUSE_KEY);
    } catch {
      unstored = v;
    }
    window.dispatchEvent(new Event(CHANGED));
  }, []);
  const value = useMemo(() => ({ paused, setPaused }), [paused, setPaused]);
  return <RefreshContext.Provider value={value}>{children}</RefreshContext.Provider>;
}

export const useRefresh = (): RefreshState => useContext(RefreshContext);

/** How far a live query's interval is from POLL_MS, at most (a fraction of it). */
export const POLL_JITTER = 0.1;

/** POLL_MS give or take POLL_JITTER of it. */
export const jitteredPoll = (random: () => number = Math.random): number =>
  Math.round(POLL_MS * (1 - POLL_JITTER + 2 * POLL_JITTER * random()));

/** The refetchInterval every live query uses: 5 s give or take up to 0.5 s, fixed per query.
 *  Queries that start together (the overview's card per broker, fifty of them on a large
 *  console) drift apart within a few polls instead of asking every broker in the same
 *  millisecond for as long as the page is open. Stays above the server's shared-read time
 *  (at most 4 s), so each poll still asks for fresh data. */
export function usePollInterval(): number | false {
  const [interval] = useState(() => jitteredPoll());
  return useContext(RefreshContext).paused ? false : interval;
}
