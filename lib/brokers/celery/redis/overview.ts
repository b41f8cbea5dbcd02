import 'server-only';
import { celeryCounts, countIn, type CeleryCountKey } from '../counts';
import type { CappedCount } from '@/lib/brokers/dto';
import type { BrokerOverview, QueueStats, WorkerInfo } from '@/lib/brokers/schema';
import { workersFrom } from '../workers';
import type { CeleryRedisCtx } from './context';
import { bucketSizes, discoverQueues, readReserved } from './lists';
import { QueueSplits } from './split';
import { inspect } from './pidbox';
import { DEAD_COUNT_CAPPED_WHY, deadCounts } from './reads-dead';
import { ReadBudget, SCAN_BYTES } from './read-profile';

/** Messages of one queue read at most per poll to split waiting from future-ETA ones. */
export const SPLIT_CAP = 5_000;

export const OLDEST_WHY = "kombu's messages carry no enqueue time, so the age of the oldest waiting message is unknown on Redis";

/** `seen` of `read` messages, scaled to the queue's `total`: a lower bound and an estimate. */
function bounded(seen: number, read: number, total: number): CappedCount {
  return { atLeast: seen, estimate: read > 0 ? Math.round((seen * total) / read) : null };
}

/** Why a queue the poll's byte budget left unread has an estimate all the same. */
export const UNREAD_WHY =
  "not read in this poll (its byte budget ran out on shorter queues): estimated from the queue's exact length, " +
  'split between waiting and future-ETA as the messages read in this poll were';

/** A total over queues some of which were read in part: the sum of bounds and estimates. */
function sumCapped(stats: QueueStats[], k: 'ready' | 'scheduled'): CappedCount {
  let estimate: number | null = 0;
  for (const s of stats) {
    const c = s.capped?.[k];
    const e = c ? c.estimate : countIn(s, k);
    estimate = estimate === null || e === null ? null : estimate + e;
  }
  return { atLeast: stats.reduce((n, s) => n + (countIn(s, k) ?? 0), 0), estimate };
}

export async function overviewOf(
  ctx: CeleryRedisCtx,
  meta: { id: string; name: string; serverInfo: string | null },
): Promise<Omit<BrokerOverview, 'capabilities'>> {
  // One poll reads at most SCAN_BYTES of messages (and ships back headers only past 64 KB each).
  const budget = new ReadBudget(SCAN_BYTES);
  // Independent reads, at once: the reserved messages, the failure tally, the queues' names.
  const [reserved, dead, found] = await Promise.all([
    readReserved(ctx, undefined, budget),
    ctx.backend ? deadCounts(ctx) : null,
    discoverQueues(ctx.client, ctx.keys, ctx.queues),
  ]);
  const names = new Set(found);
  if (!ctx.queues?.length) {
    for (const r of reserved.items) if (r.queue) names.add(r.queue);
    for (const q of dead?.byQueue.keys() ?? []) if (q) names.add(q);
  }
  const queues = [...names].sort();
  const sizes = await bucketSizes(ctx.client, ctx.keys, queues);
  const now = Date.now();
  const splits = (ctx.splits ??= new QueueSplits());
  await splits.readHeads(ctx, sizes, now);
  const unknownWhy: Record<string, string> = { oldest: OLDEST_WHY };
  const stats = new Map<string, QueueStats>();
  const partial: string[] = [];
  // Messages read in this poll and how many of them were future-ETA: the split an unread queue gets.
  const sample = { read: 0, future: 0 };
  const unread: Array<{ s: QueueStats; total: number }> = [];
  const totalOf = (q: string) => (sizes.get(q) ?? []).reduce((a, b) => a + b, 0);
  // Shortest queues first: a poll's budget runs out on the longest ones, not on every queue.
  for (const q of [...queues].sort((a, b) => totalOf(a) - totalOf(b))) {
    const total = totalOf(q);
    const { read, future, tasks } =
      total > 0 ? await splits.split(ctx, q, sizes.get(q) ?? [], SPLIT_CAP, budget, now) : { read: 0, future: 0, tasks: new Set<string>() };
    const all = read >= total;
    sample.read += read;
    sample.future += future;
    const running = reserved.items.filter((r) => r.queue === q).length;
    const s: QueueStats = {
      name: q,
      // Read in part: what was read, a lower bound (with an estimate in `capped`).
      counts: celeryCounts((all ? total : read) - future, future, running),
      dead: dead ? (dead.byQueue.get(q) ?? 0) : null,
      oldestWaitingAt: null,
      tasks: all ? [...tasks].sort() : null,
    };
    if (!all) {
      partial.push(q);
      if (read > 0) s.capped = { ready: bounded(read - future, read, total), scheduled: bounded(future, read, total) };
      else unread.push({ s, total });
    }
    if (reserved.cut) s.capped = { ...s.capped, running: { atLeast: running, estimate: null } };
    if (dead?.capped) s.capped = { ...s.capped, dead: { atLeast: s.dead ?? 0, estimate: null, why: DEAD_COUNT_CAPPED_WHY } };
    stats.set(q, s);
  }
  // LLEN is exact, so an unread queue is not unknown: "0+" with its length as the estimate.
  for (const { s, total } of unread) {
    const scheduled = sample.read > 0 ? Math.round((total * sample.future) / sample.read) : 0;
    const ready = { atLeast: 0, estimate: total - scheduled, why: UNREAD_WHY };
    s.capped = { ...s.capped, ready, scheduled: { atLeast: 0, estimate: scheduled, why: UNREAD_WHY } };
  }
  const warnings: string[] = [];
  if (partial.length) {
    warnings.push(
      `one poll reads at most ${SPLIT_CAP.toLocaleString('en-US')} messages of a queue and ${SCAN_BYTES / 1024 / 1024} MB of messages in all (shortest queues first); ` +
        `${partial.length === 1 ? 'queue' : 'queues'} ${partial.slice(0, 3).join(', ')}${partial.length > 3 ? ', ...' : ''} ` +
        'were read in part, so their waiting and future-ETA counts are lower bounds (+) with an estimate; the queue total is exact',
    );
  }
  if (!dead) unknownWhy.dead = 'no result backend is configured: Celery keeps failures only there';
  const list = [...stats.values()];
  const sum = (k: CeleryCountKey) => (list.some((s) => countIn(s, k) === null) ? null : list.reduce((n, s) => n + (countIn(s, k) ?? 0), 0));
  return {
    id: meta.id,
    name: meta.name,
    kind: 'redis',
    serverInfo: meta.serverInfo,
    readOnly: false,
    queues: queues.map((q) => stats.get(q)!),
    totals: { counts: celeryCounts(sum('ready'), sum('scheduled'), reserved.total), dead: dead ? dead.total : null },
    ...(partial.length || dead?.capped
      ? {
          totalsCapped: {
            ...(partial.length ? { ready: sumCapped(list, 'ready'), scheduled: sumCapped(list, 'scheduled') } : {}),
            ...(dead?.capped ? { dead: { atLeast: dead.total, estimate: null, why: DEAD_COUNT_CAPPED_WHY } } : {}),
          },
        }
      : {}),
    workers: { alive: 0, stale: 0 },
    ...(warnings.length ? { warnings } : {}),
    unknownWhy,
    readAt: new Date().toISOString(),
  };
}

/** Live workers by broadcast inspect over the pidbox, each method waiting `inspectTimeoutMs`. */
export const listWorkers = (ctx: CeleryRedisCtx): Promise<WorkerInfo[]> => workersFrom((m) => inspect(ctx, m));
