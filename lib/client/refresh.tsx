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

/** The refetchInterval every live query uses. */
export function usePollInterval(): number | false {
  return useContext(RefreshContext).paused ? false : POLL_MS;
}
