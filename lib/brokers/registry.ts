import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError } from './errors';
import type { BrokerKind } from './schema';
import type { BrokerAdapter, BrokerConfig } from './types';
import { createSqliteAdapter } from './potatoq/sqlite/adapter';
import { createPostgresAdapter } from './potatoq/postgres/adapter';
import { createRabbitmqAdapter } from './potatoq/rabbitmq/adapter';

/** Maps a potatoq URL scheme to a broker kind; the one switch on kinds outside adapters. */
export function kindOf(url: string): BrokerKind {
  const scheme = url.split('://', 1)[0]!.split('+', 1)[0]!.toLowerCase();
  switch (scheme) {
    case 'sqlite':
      return 'sqlite';
    case 'postgres':
    case 'postgresql':
      return 'postgres';
    case 'amqp':
    case 'amqps':
      return 'rabbitmq';
    case 'redis':
    case 'rediss':
    case 'valkey':
      return 'redis';
    default:
      throw new ConsoleError('InvalidInput', `unknown broker scheme "${scheme}"`);
  }
}

type Factory = (config: BrokerConfig) => BrokerAdapter;

const FACTORIES: Partial<Record<BrokerKind, Factory>> = {
  sqlite: createSqliteAdapter,
  postgres: createPostgresAdapter,
  rabbitmq: createRabbitmqAdapter,
};

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

/** The adapter of a configured broker, created lazily. Throws NotFound / Unsupported. */
export function getAdapter(id: string): BrokerAdapter {
  const existing = adapters.get(id);
  if (existing) return existing;
  const config = findBrokerConfig(id);
  const kind = kindOf(config.url);
  const factory = FACTORIES[kind];
  if (!factory) throw new ConsoleError('Unsupported', `${kind} brokers are not supported by this version of the console yet`);
  const adapter = factory(config);
  adapters.set(id, adapter);
  return adapter;
}

/** For tests: closes and forgets every adapter. */
export async function resetAdapters(): Promise<void> {
  const all = [...adapters.values()];
  adapters.clear();
  await Promise.allSettled(all.map((a) => a.close()));
}
