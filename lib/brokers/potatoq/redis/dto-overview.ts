import 'server-only';
import type { Redis } from 'ioredis';
import { decodePayload } from '@/lib/potatoq';
import type { Counted, DeadGroups, DeadGroupsQuery, QueueStats } from '@/lib/brokers/schema';
import { hasRange, rangeMs } from '@/lib/brokers/time-range';
import { pqCounts } from '../counts';
import { DeadGrouper, newestWindowNote } from '@/lib/triage/groups';
import { DecodeMemo } from '../decode-memo';
import { reasonTriage } from '@/lib/triage/reason-fingerprint';
import { HEAD_CHECK_LIMIT, headBlock } from '../head-block';
import type { DeadTally } from './dead-tally';
import { redisKeys } from './keys';
import { DEAD_SCAN, readOverview } from './reads-queues';
import { registeredTaskNames } from './reads-misc';
import { foldSightings } from '@/lib/brokers/task-queues';
import { payloadInfo } from './rows';

// The overview's queues and the broker-wide reads (error groups, task names), mapped onto the
// contract's DTOs. All bounded: the overview in a fixed number of pipelined round trips.

export interface RedisQueues {
  queues: QueueStats[];
  totals: Counted;
  deadExact: boolean;
  deadOrphans: number;
  queuesCapped: boolean;
}

const taskMemo = new DecodeMemo<string | null>(2000, 16 * 1024);
/** The task a head names (potatoq's, else a Celery message's; null for none), decoded once per payload. */
const headTask = (payload: string) =>
  taskMemo.get(payload, () => {
    const d = decodePayload(payload, { maxDepth: 1, maxItems: 1, maxString: 1 });
    return d.task ?? (d.kind === 'foreign' ? d.celery?.task : null) ?? null;
  });

/** Per queue: counts, the oldest waiting task, and whether the next claim is one potatoq can't decode. */
export async function overviewQueues(client: Redis, prefix: string, tally?: DeadTally): Promise<RedisQueues> {
  const o = await readOverview(client, prefix, tally);
  // The head of each ready set is what a worker claims next (read with the overview's counts).
  const queues = o.queues.map((q): QueueStats => {
    let blockedBy = null;
    const payload = q.head?.payload;
    if (q.head && typeof payload === 'string' && payload.length <= HEAD_CHECK_LIMIT)
      blockedBy = headBlock({ id: q.head.id, task: headTask(payload), payload });
    return {
      name: q.name,
      counts: pqCounts(q.ready, q.scheduled, q.running),
      dead: q.dead,
      oldestWaitingAt: q.oldestWaitingSeconds === null ? null : new Date(o.nowMs - q.oldestWaitingSeconds * 1000).toISOString(),
      tasks: null,
      ...(o.deadExact ? {} : { capped: { dead: { atLeast: q.dead, estimate: null } } }),
      blockedBy,
    };
  });
  const sum = (k: 'ready' | 'scheduled' | 'running') => o.queues.reduce((n, q) => n + q[k], 0);
  return {
    queues,
    totals: { counts: pqCounts(sum('ready'), sum('scheduled'), sum('running')), dead: o.deadTotal },
    deadExact: o.deadExact,
    deadOrphans: o.deadOrphans,
    queuesCapped: o.queuesCapped,
  };
}

/** The newest DEAD_SCAN letters grouped by error fingerprint (only one queue's, when given: P:dead
 *  holds every queue's letters, so that queue's are those among the newest DEAD_SCAN of all). A
 *  time range is a score range of P:dead (the score is the died time, ms), read and counted there. */
export async function deadGroups(client: Redis, prefix: string, q: DeadGroupsQuery): Promise<DeadGroups> {
  const k = redisKeys(prefix);
  const ranged = hasRange(q);
  const { from, to } = rangeMs(q);
  const [min, max] = [from === null ? '-inf' : String(from), to === null ? '+inf' : `(${to}`];
  const pipe0 = client.pipeline();
  if (ranged) pipe0.zrevrangebyscore(k.dead, max, min, 'WITHSCORES', 'LIMIT', 0, DEAD_SCAN).zcount(k.dead, min, max);
  else pipe0.zrevrange(k.dead, 0, DEAD_SCAN - 1, 'WITHSCORES').zcard(k.dead);
  const [[, flat], [, total]] = ((await pipe0.exec()) ?? []) as [[unknown, string[]], [unknown, number]];
  const pipe = client.pipeline();
  for (let i = 0; i < flat.length; i += 2) pipe.hmget(k.job(flat[i]!), 'q', 'r', 'p');
  const res = (await pipe.exec()) ?? [];
  const groups = new DeadGrouper();
  let found = 0;
  for (let i = 0; i < flat.length; i += 2) {
    const [queue, reason, p] = (res[i / 2]?.[1] as Array<string | null> | undefined) ?? [];
    if (queue === null || queue === undefined || (q.queue !== undefined && queue !== q.queue)) continue;
    found++;
    groups.add({
      id: flat[i]!,
      task: payloadInfo(p ?? null, { maxDepth: 1, maxItems: 1, maxString: 1 }).task ?? '(unknown)',
      queue,
      diedAtMs: Number(flat[i + 1]),
      ...reasonTriage(reason),
    });
  }
  return groups.answer(total > DEAD_SCAN ? groupsWindowNote(found, total, q.queue, ranged) : null);
}

/** What the groups leave out when P:dead holds more than one read of DEAD_SCAN letters (of the
 *  time range, when `ranged`: `total` then counts the range's letters). */
export function groupsWindowNote(found: number, total: number, queue?: string, ranged = false): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const why = `a read takes the newest ${n(DEAD_SCAN)} of the dead-letter set${ranged ? ' in the time range' : ''}`;
  if (queue === undefined) return newestWindowNote({ window: DEAD_SCAN, total: { n: total, how: 'exact' }, why });
  const among = `among the newest ${n(DEAD_SCAN)} of ${n(total)} dead letters of every queue (${why})`;
  const head =
    found === 0
      ? `No letter of ${queue} is ${among}`
      : `Grouped the ${n(found)} ${found === 1 ? 'letter' : 'letters'} of ${queue} found ${among}`;
  return `${head}: its older letters are in no group's count.`;
}

/** Names for enqueue's autocomplete: registered records, the heads of each queue and the newest letters (all bounded). */
export async function taskNames(client: Redis, prefix: string, queues: string[]): Promise<string[]> {
  const k = redisKeys(prefix);
  const pipe = client.pipeline();
  for (const q of queues.slice(0, 200)) pipe.zrange(k.ready(q), '0', '49').zrange(k.delayed(q), '0', '9');
  pipe.zrevrange(k.dead, 0, 499);
  const ids = [...new Set(((await pipe.exec()) ?? []).flatMap((r) => (Array.isArray(r[1]) ? (r[1] as string[]) : [])))];
  const p2 = client.pipeline();
  for (const id of ids) p2.hget(k.job(id), 'p');
  const names = new Set(await registeredTaskNames(client, prefix));
  for (const r of ids.length ? ((await p2.exec()) ?? []) : []) {
    const t = typeof r[1] === 'string' ? payloadInfo(r[1], { maxDepth: 1, maxItems: 1, maxString: 1 }).task : null;
    if (t) names.add(t);
  }
  return [...names].sort();
}

/** Each task's queues from the same bounded reads as `taskNames`: each queue's first waiting and
 *  delayed tasks, and the newest letters (their hash names the queue). */
export async function taskQueues(client: Redis, prefix: string, queues: string[]): Promise<Record<string, string[]>> {
  const k = redisKeys(prefix);
  const pipe = client.pipeline();
  const some = queues.slice(0, 200);
  for (const q of some) pipe.zrange(k.ready(q), '0', '49').zrange(k.delayed(q), '0', '9');
  pipe.zrevrange(k.dead, 0, 499);
  const got = (await pipe.exec()) ?? [];
  const ids = (i: number) => (Array.isArray(got[i]?.[1]) ? (got[i]![1] as string[]) : []);
  const where = new Map<string, string | null>();
  some.forEach((q, i) => [...ids(2 * i), ...ids(2 * i + 1)].forEach((id) => where.set(id, q)));
  for (const id of ids(2 * some.length)) if (!where.has(id)) where.set(id, null);
  const all = [...where.keys()];
  const p2 = client.pipeline();
  for (const id of all) p2.hmget(k.job(id), 'q', 'p');
  const rows = all.length ? ((await p2.exec()) ?? []) : [];
  return foldSightings(
    rows.map((r, i) => {
      const [q, p] = Array.isArray(r[1]) ? (r[1] as Array<string | null>) : [null, null];
      const task = typeof p === 'string' ? payloadInfo(p, { maxDepth: 1, maxItems: 1, maxString: 1 }).task : null;
      return { task, queue: where.get(all[i]!) ?? q ?? null };
    }),
  );
}
