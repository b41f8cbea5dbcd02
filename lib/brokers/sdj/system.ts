import 'server-only';
import type { SystemModule } from '@/lib/brokers/types';
import { createSdjAdapter } from './adapter';
import { ZSdjBrokerOptions } from './options';

// Simple Durable Jobs keeps its jobs in the application's own database: the URL names it.

const SCHEMES: Record<string, { store: string; label: string }> = {
  postgresql: { store: 'postgres', label: 'PostgreSQL' },
  postgres: { store: 'postgres', label: 'PostgreSQL' },
  mysql: { store: 'mysql', label: 'MySQL' },
};

const schemeOf = (url: string) => url.split('://', 1)[0]!.toLowerCase();

function storeFor(url: string): { store: string; label: string } {
  const s = SCHEMES[schemeOf(url)];
  if (!s) throw new Error("a Simple Durable Jobs broker's scheme must be postgresql, postgres or mysql");
  return s;
}

/** Why a Simple Durable Jobs URL cannot be used, or null. Never repeats the URL (a password). */
export function checkSdjUrl(url: string): string | null {
  if (!url.includes('://') || !SCHEMES[schemeOf(url)])
    return "a Simple Durable Jobs broker's scheme must be postgresql, postgres or mysql (the application's database)";
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'a Simple Durable Jobs broker URL must look like postgresql://user:password@host:port/database';
  }
  if (!u.hostname) return 'the URL names no host';
  if (!u.pathname.replace(/^\//, '')) return 'the URL names no database (its path)';
  return null;
}

export const sdjSystem: SystemModule = {
  kind: 'sdj',
  label: 'Simple Durable Jobs',
  checkUrl: checkSdjUrl,
  storeOf: (url) => storeFor(url).store,
  storeLabel: (url) => storeFor(url).label,
  optionsFor: () => ZSdjBrokerOptions,
  factoryFor: () => createSdjAdapter,
};
