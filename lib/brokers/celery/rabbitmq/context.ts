import 'server-only';
import type { Redis } from 'ioredis';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseOptions } from '@/lib/brokers/options';
import { AmqpLink } from '@/lib/transports/amqp/connection';
import { Management } from '@/lib/transports/amqp/management';
import { parseAmqpUrl, parseManagement, type AmqpTarget } from '@/lib/transports/amqp/url';
import { connectRedis } from '@/lib/transports/redis/server';
import type { StoreConfig } from '@/lib/brokers/types';
import { ZCeleryOptions, type CeleryOptions } from '../options';
import type { ResultCtx } from '../redis/context';
import type { CeleryDlq } from './dlq';

/** What every read and write of one Celery-on-RabbitMQ adapter shares. */
export interface CeleryRabbitCtx {
  config: StoreConfig;
  o: CeleryOptions;
  target: AmqpTarget;
  /** The management API's client; null when no managementUrl is configured. */
  mgmt: Management | null;
  link: AmqpLink;
  /** The Redis result backend's client; null when none is configured. */
  backend: Redis | null;
  rctx: ResultCtx;
  inspectMs: number;
  /** The dead-letter queue the app's tasks are rejected into, when one is configured. */
  dlq: CeleryDlq | null;
}

/** The adapter's connections from its configuration (nothing is connected until first used). */
export function openCeleryRabbit(config: StoreConfig): CeleryRabbitCtx {
  const o = parseOptions(ZCeleryOptions, config.options);
  const target = parseAmqpUrl(config.url);
  const mgmtTarget = parseManagement(o, target);
  const mgmt = mgmtTarget ? new Management(mgmtTarget, 10_000) : null;
  const link = new AmqpLink(target, 10_000, mgmt ? (q) => mgmt.lockHolder(target.vhost, q) : undefined);
  const backendUrl = o.resultBackend && o.resultBackend !== 'none' ? o.resultBackend : null;
  if (backendUrl && !/^(redis|rediss|unix):/i.test(backendUrl))
    throw new ConsoleError('InvalidInput', 'broker option resultBackend: only a Redis result backend (redis://, rediss://) is supported');
  const backend: Redis | null = backendUrl ? connectRedis(backendUrl) : null;
  const rctx: ResultCtx = { brokerId: config.id, backend, resultPrefix: o.resultKeyprefix ?? '', resultExpires: o.resultExpires ?? 86400 };
  const inspectMs = o.inspectTimeoutMs ?? 1000;
  const dlq: CeleryDlq | null = o.deadLetterQueue
    ? { link, lockKey: target.display, name: o.deadLetterQueue, limit: o.deadBrowseLimit ?? 10_000 }
    : null;
  return { config, o, target, mgmt, link, backend, rctx, inspectMs, dlq };
}
