'use client';
import { createContext, useContext, useMemo, type ReactNode } from 'react';

/** The environments configured (lib/config.ts): the console's, and each broker's own over it. */
export interface Environments {
  console: string | null;
  brokers: Record<string, string>;
}

const EnvironmentContext = createContext<Environments>({ console: null, brokers: {} });

export function EnvironmentProvider({ value, children }: { value?: Environments; children: ReactNode }) {
  const v = useMemo(() => value ?? { console: null, brokers: {} }, [value]);
  return <EnvironmentContext.Provider value={v}>{children}</EnvironmentContext.Provider>;
}

/** A broker's environment (its own, else the console's), or the console's without a broker;
 *  null when none is named. */
export function useEnvironment(brokerId?: string | null): string | null {
  const envs = useContext(EnvironmentContext);
  if (!brokerId) return envs.console;
  return envs.brokers[brokerId] ?? null;
}
