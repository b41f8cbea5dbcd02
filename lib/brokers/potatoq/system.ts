import 'server-only';
import type { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import type { AdapterFactory, SystemModule } from '@/lib/brokers/types';
import { ZPostgresOptions, ZRabbitmqOptions, ZRedisOptions, ZSqliteOptions } from './options';
import { createPostgresAdapter } from './postgres/adapter';
import { createRabbitmqAdapter } from './rabbitmq/adapter';
import { createRedisAdapter } from './redis/adapter';
import { createSqliteAdapter } from './sqlite/adapter';

type Store = 'sqlite' | 'postgres' | 'rabbitmq' | 'redis';

/** potatoq's broker URL schemes, as its own `broker_url` accepts them; the scheme picks the store. */
const SCHEMES: Record<string, Store> = {
  sqlite: 'sqlite',
  postgresql: 'postgres',
  postgres: 'postgres',
  amqp: 'rabbitmq',
  amqps: 'rabbitmq',
  redis: 'redis',
  rediss: 'redis',
  valkey: 'redis',
  valkeys: 'redis',
  unix: 'redis',
};

const STORE_LABELS: Record<Store, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL', rabbitmq: 'RabbitMQ', redis: 'Redis' };

const STORES: Record<Store, { options: z.ZodType<Record<string, unknown>>; create: AdapterFactory | null }> = {
  sqlite: { options: ZSqliteOptions, create: createSqliteAdapter },
  postgres: { options: ZPostgresOptions, create: createPostgresAdapter },
  rabbitmq: { options: ZRabbitmqOptions, create: createRabbitmqAdapter },
  redis: { options: ZRedisOptions, create: createRedisAdapter },
};

const schemeOf = (url: string) => url.split('://', 1)[0]!.split('+', 1)[0]!.toLowerCase();

/** The store a potatoq URL names; the one place a scheme is mapped. Never echoes the URL. */
export function potatoqStore(url: string): Store {
  const scheme = schemeOf(url);
  const store = SCHEMES[scheme];
  if (!store) throw new ConsoleError('InvalidInput', `unknown broker scheme "${scheme}"`);
  return store;
}

export const potatoqSystem: SystemModule = {
  kind: 'potatoq',
  label: 'potatoq',
  checkUrl: (url) => (SCHEMES[schemeOf(url)] ? null : `scheme must be one of ${Object.keys(SCHEMES).join(', ')}`),
  storeOf: potatoqStore,
  storeLabel: (url) => STORE_LABELS[potatoqStore(url)],
  optionsFor: (url) => STORES[potatoqStore(url)].options,
  factoryFor: (url) => STORES[potatoqStore(url)].create,
};
