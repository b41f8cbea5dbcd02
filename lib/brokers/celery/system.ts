import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { AdapterFactory, SystemModule } from '@/lib/brokers/types';
import { ZCeleryOptions } from './options';
import { createCeleryRabbitAdapter } from './rabbitmq/adapter';
import { createCeleryRedisAdapter } from './redis/adapter';

type Store = 'redis' | 'rabbitmq';

/** The broker URL schemes of a Celery app the console reads; the scheme picks the store. */
const SCHEMES: Record<string, Store> = { redis: 'redis', rediss: 'redis', amqp: 'rabbitmq', amqps: 'rabbitmq', pyamqp: 'rabbitmq' };

const STORE_LABELS: Record<Store, string> = { redis: 'Redis', rabbitmq: 'RabbitMQ' };

const FACTORIES: Record<Store, AdapterFactory | null> = {
  // (Its second parameter is a test's observer, not the context.)
  redis: (config) => createCeleryRedisAdapter(config),
  rabbitmq: createCeleryRabbitAdapter,
};

const schemeOf = (url: string) => url.split('://', 1)[0]!.toLowerCase();

function celeryStore(url: string): Store {
  const store = SCHEMES[schemeOf(url)];
  if (!store) throw new ConsoleError('InvalidInput', `unknown Celery broker scheme "${schemeOf(url)}"`);
  return store;
}

export const celerySystem: SystemModule = {
  kind: 'celery',
  label: 'Celery',
  checkUrl: (url) => (SCHEMES[schemeOf(url)] ? null : `a Celery broker's scheme must be one of ${Object.keys(SCHEMES).join(', ')}`),
  storeOf: celeryStore,
  storeLabel: (url) => STORE_LABELS[celeryStore(url)],
  optionsFor: () => ZCeleryOptions,
  factoryFor: (url) => FACTORIES[celeryStore(url)],
};
