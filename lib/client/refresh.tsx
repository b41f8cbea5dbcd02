'use client';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

/** Live data polls every 5 s unless the operator pauses it (e.g. to read a long list). */
export const POLL_MS = 5000;

interface RefreshState {
  paused: boolean;
  setPaused: (paused: boolean) => void;
}

const RefreshContext = createContext<RefreshState>({ paused: false, setPaused: () => {} });

export function RefreshProvider({ children }: { children: ReactNode }) {
  const [paused, setPaused] = useState(false);
  const value = useMemo(() => ({ paused, setPaused }), [paused]);
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
