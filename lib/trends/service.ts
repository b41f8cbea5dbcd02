import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { brokerList, deadHistogram } from '@/lib/brokers/service';
import { getTrendConfig } from './config';
import { trendWindow, type DeadTrend, type DeadTrendQuery, type QueueTrend, type QueueTrendQuery } from './schema';
import { getTrendStore } from './store';

/** A dead-letter trend answers every caller for this long (charts poll; a RabbitMQ count browses DLQs). */
export const DEAD_TREND_CACHE_MS = 30_000;
const MAX_CACHED = 500;
const deadCache = new Map<string, { at: number; v: Promise<DeadTrend> }>();

const isoOf = (ms: number) => new Date(ms).toISOString();

/** A configured broker's id, or NotFound (the samples of a broker no longer configured stay unread). */
function requireBroker(id: string): void {
  if (!brokerList().some((b) => b.id === id)) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
}

/** Dead letters per bucket from the broker's own died times (never sampled: the broker keeps them). */
export async function deadTrend(brokerId: string, q: DeadTrendQuery, now = Date.now()): Promise<DeadTrend> {
  requireBroker(brokerId);
  const key = JSON.stringify([brokerId, q.range, q.queue ?? null, q.group ?? null]);
  const hit = deadCache.get(key);
  if (hit && now - hit.at < DEAD_TREND_CACHE_MS) return hit.v;
  const w = trendWindow(q.range, now);
  const v = deadHistogram(brokerId, { ...w, queue: q.queue, group: q.group }).then((h) => ({
    range: q.range,
    from: isoOf(w.fromMs),
    to: isoOf(w.toMs),
    bucketSeconds: w.bucketMs / 1000,
    counts: h.counts,
    total: h.counts.reduce((n, c) => n + c, 0),
    undated: h.undated,
    scannedNewest: h.scannedNewest,
  }));
  if (deadCache.size >= MAX_CACHED) deadCache.clear();
  deadCache.set(key, { at: now, v });
  v.catch(() => deadCache.delete(key));
  return v;
}

/** Depth, oldest age and dead count over time, read from the samples in the state store. */
export async function queueTrend(brokerId: string, q: QueueTrendQuery, now = Date.now()): Promise<QueueTrend> {
  requireBroker(brokerId);
  const cfg = getTrendConfig();
  const w = trendWindow(q.range, now);
  let rows;
  try {
    rows = await (await getTrendStore()).read({ broker: brokerId, queue: q.queue ?? '', ...w });
  } catch (e) {
    console.error(JSON.stringify({ event: 'console.trends.read-failed', message: e instanceof Error ? e.message : String(e) }));
    throw new ConsoleError(
      'BrokerUnavailable',
      "the console's state store (POTATOQ_CONSOLE_STATE) could not be read; the console log has the details",
    );
  }
  return {
    range: q.range,
    from: isoOf(w.fromMs),
    to: isoOf(w.toMs),
    bucketSeconds: w.bucketMs / 1000,
    queue: q.queue ?? null,
    sampling: cfg.intervalMs
      ? { on: true, intervalSeconds: cfg.intervalMs / 1000 }
      : { on: false, intervalSeconds: null, why: 'sampling is off (POTATOQ_CONSOLE_TRENDS_INTERVAL_S=0)' },
    ...rows,
  };
}
