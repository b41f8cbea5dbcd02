import 'server-only';
import { celeryCounts } from '../counts';
import type { Diagnosis, QueueStats } from '@/lib/brokers/schema';
import type { HeldFact, LateFact } from '../diagnose';
import { diagnoseCelery } from '../diagnose-run';
import type { CeleryEnvelope } from '../message';
import { liveWorkers } from '../workers';
import type { CeleryRedisCtx } from './context';
import { bucketSizes, discoverQueues, readReserved, walkQueue } from './lists';
import { HEADS, ReadBudget, SCAN_BYTES } from './read-profile';
import { inspect } from './pidbox';

/** Reserved messages read at most (oldest first); waiting messages read per queue for ETAs. */
export const HELD_CAP = 2_000;
export const LATE_SCAN = 5_000;

/** The message's own hard time limit (`timelimit: [hard, soft]` header), seconds. */
function hardLimitOf(env: CeleryEnvelope): number | null {
  const v = env.headers.find(([k]) => k === 'timelimit')?.[1];
  const hard = v?.k === 'list' ? v.items[0] : undefined;
  const n = hard?.k === 'int' ? Number(hard.text) : hard?.k === 'float' ? hard.v : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Stuck work on Celery's Redis broker: kombu's unacked hash and lists against the live
 *  workers' answers. Unacked is read before the workers are asked, so a message reserved
 *  meanwhile is reported by its worker rather than flagged. */
export async function diagnoseRedis(
  ctx: CeleryRedisCtx,
  q: { overdueSeconds: number; revoke: { on: boolean; why?: string } },
): Promise<Diagnosis> {
  const budget = new ReadBudget(SCAN_BYTES);
  const reserved = await readReserved(ctx, HELD_CAP, budget);
  const items: HeldFact[] = reserved.items.map((r) => ({
    id: r.env.info.id ?? r.id,
    queue: r.queue,
    task: r.env.info.task ?? '(unknown)',
    deliveredAt: r.deliveredAt,
    etaMs: r.env.etaMs,
    timeLimit: hardLimitOf(r.env),
  }));
  const [found, names] = await Promise.all([liveWorkers((m) => inspect(ctx, m)), discoverQueues(ctx.client, ctx.keys, ctx.queues)]);
  // `inspect reserved` gives no ETA: the reserved message itself has it.
  const etaOf = new Map(items.map((h) => [h.id, h.etaMs]));
  const live = found.map((w) => ({ ...w, waiting: w.waiting.map((t) => ({ ...t, etaMs: t.etaMs ?? etaOf.get(t.id) ?? null })) }));
  const sizes = await bucketSizes(ctx.client, ctx.keys, names);
  const nowMs = Date.now();
  const due = nowMs - q.overdueSeconds * 1000;
  const queues: QueueStats[] = [];
  const late: LateFact[] = [];
  for (const name of names) {
    const total = (sizes.get(name) ?? []).reduce((a, b) => a + b, 0);
    queues.push({ name, counts: celeryCounts(total, 0, null), dead: null, oldestWaitingAt: null, tasks: null });
    if (!total) continue;
    const l: LateFact = { queue: name, count: 0, capped: total > LATE_SCAN, oldestSeconds: 0, ids: [] };
    let read = 0;
    for await (const it of walkQueue(ctx, name, HEADS, budget, undefined, LATE_SCAN)) {
      read += 1;
      if (it.env.etaMs === null || it.env.etaMs >= due) continue;
      l.count += 1;
      l.oldestSeconds = Math.max(l.oldestSeconds, (nowMs - it.env.etaMs) / 1000);
      if (it.env.info.id) l.ids.push(it.env.info.id);
    }
    // The poll's read budget ran out before the queue's end: the count is a lower bound.
    if (read < Math.min(total, LATE_SCAN)) l.capped = true;
    if (l.count) late.push(l);
  }
  return diagnoseCelery({
    brokerId: ctx.brokerId,
    queues,
    live,
    held: { value: { items, capped: reserved.total > HELD_CAP } },
    unacked: null,
    visibilityTimeout: ctx.visibilityTimeout,
    late: { value: late },
    overdueSeconds: q.overdueSeconds,
    inspectMs: ctx.inspectTimeoutMs,
    revoke: q.revoke,
    nowMs,
  });
}
