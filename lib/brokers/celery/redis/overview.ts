import 'server-only';
import type { BrokerOverview, QueueStats, WorkerInfo } from '@/lib/brokers/schema';
import { workersFrom } from '../workers';
import type { CeleryRedisCtx } from './context';
import { bucketSizes, discoverQueues, isFuture, readReserved, walkQueue } from './lists';
import { inspect } from './pidbox';
import { deadCounts } from './reads-dead';

/** Queues longer than this are not read to split waiting from future-ETA messages. */
export const SPLIT_CAP = 5_000;

export const OLDEST_WHY = "kombu's messages carry no enqueue time, so the age of the oldest waiting message is unknown on Redis";

export async function overviewOf(
  ctx: CeleryRedisCtx,
  meta: { id: string; name: string; serverInfo: string | null },
): Promise<Omit<BrokerOverview, 'capabilities'>> {
  const reserved = await readReserved(ctx.client, ctx.keys);
  const dead = ctx.backend ? await deadCounts(ctx) : null;
  const names = new Set(await discoverQueues(ctx.client, ctx.keys, ctx.queues));
  if (!ctx.queues?.length) {
    for (const r of reserved.items) if (r.queue) names.add(r.queue);
    for (const q of dead?.byQueue.keys() ?? []) if (q) names.add(q);
  }
  const queues = [...names].sort();
  const sizes = await bucketSizes(ctx.client, ctx.keys, queues);
  const now = Date.now();
  const unknownWhy: Record<string, string> = { oldest: OLDEST_WHY };
  const stats: QueueStats[] = [];
  for (const q of queues) {
    const total = (sizes.get(q) ?? []).reduce((a, b) => a + b, 0);
    let future: number | null = 0;
    const tasks = new Set<string>();
    if (total > SPLIT_CAP) {
      future = null;
      unknownWhy.ready =
        unknownWhy.scheduled = `queues over ${SPLIT_CAP.toLocaleString('en-US')} messages are not read to split waiting from future-ETA messages; see the queue's total`;
    } else {
      for await (const it of walkQueue(ctx.client, ctx.keys, q, undefined, SPLIT_CAP)) {
        if (isFuture(it.env, now)) future! += 1;
        if (it.env.info.task) tasks.add(it.env.info.task);
      }
    }
    const running = reserved.items.filter((r) => r.queue === q).length;
    stats.push({
      name: q,
      ready: future === null ? null : total - future,
      scheduled: future,
      running,
      dead: dead ? (dead.byQueue.get(q) ?? 0) : null,
      oldestReadyAt: null,
      tasks: total > SPLIT_CAP ? null : [...tasks].sort(),
    });
  }
  if (!dead) unknownWhy.dead = 'no result backend is configured: Celery keeps failures only there';
  const sum = (k: 'ready' | 'scheduled' | 'running' | 'dead') =>
    stats.some((s) => s[k] === null) ? null : stats.reduce((n, s) => n + (s[k] ?? 0), 0);
  return {
    id: meta.id,
    name: meta.name,
    kind: 'redis',
    serverInfo: meta.serverInfo,
    readOnly: false,
    queues: stats,
    totals: { ready: sum('ready'), scheduled: sum('scheduled'), running: reserved.total, dead: dead ? dead.total : null },
    workers: { alive: 0, stale: 0 },
    unknownWhy,
    readAt: new Date().toISOString(),
  };
}

/** Live workers by broadcast inspect over the pidbox, each method waiting `inspectTimeoutMs`. */
export const listWorkers = (ctx: CeleryRedisCtx): Promise<WorkerInfo[]> => workersFrom((m) => inspect(ctx, m));
