import 'server-only';
import type { Redis } from 'ioredis';
import { STUCK_IDS } from '@/lib/brokers/dto';
import type { OverdueFact, RunningFact } from '../diagnose';
import { RUNNING_CHECK_LIMIT, STUCK_PAYLOAD_LIMIT } from '../stuck-limits';
import { redisKeys } from './keys';
import { payloadInfo } from './rows';

// Bounded reads for the stuck-work diagnosis on potatoq's Redis layout, pipelined: running
// tasks from each queue's lease set (soonest deadline first) with their hash's worker, and
// scheduled tasks past due from each queue's delayed set. potatoq records no claim time on
// Redis, so a running task's run time is unknown (runningFor null).

export async function runningFacts(client: Redis, prefix: string, queues: string[]): Promise<{ rows: RunningFact[]; capped: boolean }> {
  const k = redisKeys(prefix);
  const p1 = client.pipeline();
  for (const q of queues) p1.zrange(k.active(q), '0', String(RUNNING_CHECK_LIMIT));
  const sets = queues.length ? ((await p1.exec()) ?? []) : [];
  const all = queues.flatMap((queue, i) => ((sets[i]?.[1] as string[] | undefined) ?? []).map((id) => ({ id, queue })));
  const picked = all.slice(0, RUNNING_CHECK_LIMIT);
  const p2 = client.pipeline();
  for (const r of picked) p2.hget(k.job(r.id), 'w').hstrlen(k.job(r.id), 'p');
  const heads = picked.length ? ((await p2.exec()) ?? []) : [];
  // Payloads are read only where they are small enough to look for a time limit in.
  const small = picked.filter((_, i) => Number(heads[2 * i + 1]?.[1] ?? 0) <= STUCK_PAYLOAD_LIMIT);
  const p3 = client.pipeline();
  for (const r of small) p3.hget(k.job(r.id), 'p');
  const bodies = small.length ? ((await p3.exec()) ?? []) : [];
  const payloads = new Map(small.map((r, i) => [r.id, (bodies[i]?.[1] as string | null | undefined) ?? null]));
  return {
    capped: all.length > RUNNING_CHECK_LIMIT,
    rows: picked.map((r, i) => {
      const payload = payloads.get(r.id) ?? null;
      return {
        id: r.id,
        queue: r.queue,
        task: (payload ? payloadInfo(payload, { maxDepth: 1, maxItems: 1, maxString: 1 }).task : null) ?? '(unknown)',
        worker: (heads[2 * i]?.[1] as string | null | undefined) ?? null,
        runningFor: null,
        payload,
      };
    }),
  };
}

/** Scheduled tasks due more than `overdueSeconds` ago, per queue: ZCOUNT (exact) and the most
 *  overdue ids of each queue's delayed set, scored by due time in ms. */
export async function overdueFacts(
  client: Redis,
  prefix: string,
  queues: string[],
  overdueSeconds: number,
  nowMs = Date.now(),
): Promise<OverdueFact[]> {
  const k = redisKeys(prefix);
  const before = `(${nowMs - overdueSeconds * 1000}`;
  const pipe = client.pipeline();
  for (const q of queues)
    pipe.zcount(k.delayed(q), '-inf', before).zrangebyscore(k.delayed(q), '-inf', before, 'WITHSCORES', 'LIMIT', 0, STUCK_IDS);
  const res = queues.length ? ((await pipe.exec()) ?? []) : [];
  const out: OverdueFact[] = [];
  queues.forEach((queue, i) => {
    const count = Number(res[2 * i]?.[1] ?? 0);
    const flat = (res[2 * i + 1]?.[1] as string[] | undefined) ?? [];
    if (!count || !flat.length) return;
    const ids = flat.filter((_, j) => j % 2 === 0);
    out.push({ queue, count, capped: false, oldestSeconds: Math.max(0, (nowMs - Number(flat[1])) / 1000), ids });
  });
  return out.sort((a, b) => b.oldestSeconds - a.oldestSeconds);
}
