import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { StoreConfig } from '@/lib/brokers/types';
import type { AmqpLink } from '@/lib/transports/amqp/connection';
import type { Management, MgmtQueue } from '@/lib/transports/amqp/management';
import type { Liveness, ResultBackend } from '../results';
import { isPotatoqQueue, V3_BROWSE_REFUSAL } from './topology';
import type { AmqpTarget } from '@/lib/transports/amqp/url';

/** Everything one RabbitMQ adapter's reads and writes share. */
export interface RabbitCtx {
  config: StoreConfig;
  target: AmqpTarget;
  link: AmqpLink;
  mgmt: Management | null;
  backend: ResultBackend | null;
  /** Same server + vhost share DLQ browse locks. */
  lockKey: string;
  /** Queues named in the configuration (`queues`), for when there is no management API. */
  knownQueues: string[];
  /** Up to this many queues are counted by passive declares (exact); past it, from the
   *  management listing (one request; RabbitMQ's statistics, a few seconds old). */
  exactCountsUpTo: number;
  /** At most this many letters are held per DLQ by one browse. */
  browseLimit: number;
  live: Liveness;
  resultExpires: number;
}

/** potatoq's work queues of the vhost: from the management API (recognised by their
 *  arguments, or by a `.dlq` of potatoq's shape), plus the configured ones. */
export async function discoverQueues(ctx: RabbitCtx): Promise<{ names: string[]; mgmt: Map<string, MgmtQueue> | null }> {
  const names = new Set(ctx.knownQueues);
  let byName: Map<string, MgmtQueue> | null = null;
  if (ctx.mgmt) {
    const all = await ctx.mgmt.queues(ctx.target.vhost);
    byName = new Map(all.map((q) => [q.name, q]));
    for (const q of all) {
      if (isPotatoqQueue(q.name, q.arguments)) names.add(q.name);
      else if (q.name.endsWith('.dlq') && q.arguments['x-delivery-limit'] === -1) {
        const base = q.name.slice(0, -4);
        if (!base.includes('.')) names.add(base);
      }
    }
  }
  return { names: [...names].sort(), mgmt: byName };
}

/** Dead letters can be read only on 4.x (3.x deletes what it requeues). */
export async function requireBrowsable(ctx: RabbitCtx): Promise<void> {
  const s = await ctx.link.serverInfo();
  if (s.major < 4) throw new ConsoleError('Unsupported', V3_BROWSE_REFUSAL);
}
