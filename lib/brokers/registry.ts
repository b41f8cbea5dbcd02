import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError } from './errors';
import type { BrokerKind } from './schema';
import { createAdapter, storeOf } from './systems';
import type { BrokerAdapter, BrokerConfig } from './types';

/**
 * The configured brokers and their adapters. Which system a broker is comes from its entry's
 * `kind` (lib/brokers/systems.ts has the table); nothing here or above branches on it.
 */

// Cached per process; survives Next's dev-mode module reloads through globalThis.
const g = globalThis as unknown as { __potatoqAdapters?: Map<string, BrokerAdapter> };
const adapters = (g.__potatoqAdapters ??= new Map());

export function listBrokerConfigs(): BrokerConfig[] {
  return getConfig().brokers;
}

export function findBrokerConfig(id: string): BrokerConfig {
  const config = getConfig().brokers.find((b) => b.id === id);
  if (!config) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
  return config;
}

/** The store a configured broker runs on, for display; 'unknown' when its URL says nothing. */
export function brokerKindOf(config: BrokerConfig): BrokerKind {
  try {
    return storeOf(config);
  } catch {
    return 'unknown';
  }
}

/** The adapter of a configured broker, created lazily. Throws NotFound / Unsupported. */
export function getAdapter(id: string): BrokerAdapter {
  const existing = adapters.get(id);
  if (existing) return existing;
  const adapter = createAdapter(findBrokerConfig(id));
  adapters.set(id, adapter);
  return adapter;
}

/** For tests: closes and forgets every adapter. */
export async function resetAdapters(): Promise<void> {
  const all = [...adapters.values()];
  adapters.clear();
  await Promise.allSettled(all.map((a) => a.close()));
}
