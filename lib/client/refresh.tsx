'use client';
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';

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

/** The refetchInterval every live query uses. */
export function usePollInterval(): number | false {
  return useContext(RefreshContext).paused ? false : POLL_MS;
}
