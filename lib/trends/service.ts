import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { brokerList, deadHistogram } from '@/lib/brokers/service';
import { getTrendConfig } from './config';
import { rangeWindow, trendWindow, type DeadTrend, type DeadTrendQuery, type QueueTrend, type QueueTrendQuery } from './schema';
import { hasRange, rangeMs, rangeProblem } from '@/lib/brokers/time-range';
import { getTrendStore } from './store';
import { getDeathStore } from './deaths-open';
import { campaignMarks, type CampaignMark } from './marks';
import { getStateDb } from '@/lib/state/sql';

/** A dead-letter trend answers every caller for this long (charts poll; a RabbitMQ count browses DLQs). */
export const DEAD_TREND_CACHE_MS = 30_000;
const MAX_CACHED = 500;
const deadCache = new Map<string, { at: number; v: Promise<Omit<DeadTrend, 'campaigns'>> }>();

const isoOf = (ms: number) => new Date(ms).toISOString();

/** A configured broker's id, or NotFound (the samples of a broker no longer configured stay unread). */
function requireBroker(id: string): void {
  if (!brokerList().some((b) => b.id === id)) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
}

const logReadFailed = (e: unknown) =>
  console.error(JSON.stringify({ event: 'console.trends.read-failed', message: e instanceof Error ? e.message : String(e) }));

/** The deaths the console recorded in the window (null: its store could not be read, logged). */
async function recordedOf(brokerId: string, q: DeadTrendQuery, w: Window) {
  try {
    return await (await getDeathStore()).read({ broker: brokerId, ...w, queue: q.queue, group: q.group });
  } catch (e) {
    logReadFailed(e);
    return null;
  }
}

/** The campaigns begun in the window: read on every call, never from the shared answer, so a
 *  replay is marked at the chart's next read (a cache dropped by the action would not reach
 *  here: Next bundles server actions and route handlers as separate instances of this module). */
async function marksOf(brokerId: string, fromMs: number, toMs: number, queue?: string): Promise<CampaignMark[]> {
  try {
    return await campaignMarks(await getStateDb(), brokerId, fromMs, toMs, queue);
  } catch (e) {
    logReadFailed(e);
    return [];
  }
}

type Counted = Omit<DeadTrend, 'campaigns'>;

/**
 * Dead letters per bucket: the higher of the broker's own count (the died times of the letters
 * it keeps) and the deaths the console recorded as it saw them (lib/trends/deaths.ts), so a
 * replay or a discard does not erase an incident, and deaths the console never saw (before it
 * ran, or a burst past one read) still count while their letters are kept. The counts are
 * shared for DEAD_TREND_CACHE_MS; the campaigns' marks are not.
 */
export async function deadTrend(brokerId: string, q: DeadTrendQuery, now = Date.now()): Promise<DeadTrend> {
  requireBroker(brokerId);
  const bad = rangeProblem(q);
  if (bad) throw new ConsoleError('InvalidInput', `${bad.field}: ${bad.message}`, { [bad.field]: bad.message });
  const w = windowOf(q, now);
  // The window itself is the key: a list's range that resolves to the same buckets shares them.
  const key = JSON.stringify([brokerId, w.fromMs, w.toMs, w.bucketMs, q.queue ?? null, q.group ?? null]);
  const hit = deadCache.get(key);
  const counted = hit && now - hit.at < DEAD_TREND_CACHE_MS ? hit.v : countDeaths(brokerId, q, w, now, key);
  const t = await counted;
  return { ...t, campaigns: await marksOf(brokerId, Date.parse(t.from), Date.parse(t.to), q.queue) };
}

type Window = ReturnType<typeof trendWindow> & { range: DeadTrendQuery['range']; clamped?: boolean };

/** The preset's window, or, with a list's time range, the window that follows it (clamped to a week). */
function windowOf(q: DeadTrendQuery, now: number): Window {
  return hasRange(q) ? rangeWindow(rangeMs(q), now) : { range: q.range, ...trendWindow(q.range, now) };
}

function countDeaths(brokerId: string, q: DeadTrendQuery, w: Window, now: number, key: string): Promise<Counted> {
  const span = { fromMs: w.fromMs, toMs: w.toMs, bucketMs: w.bucketMs, buckets: w.buckets };
  const v = Promise.all([deadHistogram(brokerId, { ...span, queue: q.queue, group: q.group }), recordedOf(brokerId, q, w)]).then(
    ([h, recorded]) => {
      const counts = h.counts.map((c, i) => Math.max(c, recorded?.[i] ?? 0));
      return {
        range: w.range,
        ...(w.clamped ? { clamped: true as const } : {}),
        from: isoOf(w.fromMs),
        to: isoOf(w.toMs),
        bucketSeconds: w.bucketMs / 1000,
        counts,
        total: counts.reduce((n, c) => n + c, 0),
        undated: h.undated,
        scannedNewest: h.scannedNewest,
        recorded,
      };
    },
  );
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
    logReadFailed(e);
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
