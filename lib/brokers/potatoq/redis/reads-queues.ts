import 'server-only';
import type { Redis } from 'ioredis';
import { reasonSummary } from '@/lib/potatoq';
import { PRIO, redisKeys } from './keys';
import { payloadInfo, timeMs } from './rows';
import { runScript, scriptRefused, SCRIPTS } from './scripts';

// The overview: every queue of `P:queues` with its counts, in a fixed number of pipelined
// round trips whatever the depth (at most 3 + MAX_BANDS; one more past MAX_QUEUES queues). The
// dead letters' queues are tallied alongside by a read-only script, DEAD_SCAN / DEAD_SLICE calls
// in turn (SCRIPTS.deadByQueue); where scripts are refused (an ACL without EVALSHA), by
// pipelined HGETs.

/** Queues listed at most (`P:queues` is never pruned by potatoq). */
export const MAX_QUEUES = 1000;
/** Newest dead letters read to count dead letters per queue (the queue is only in each hash's `q`). */
export const DEAD_SCAN = 10_000;
/** Priority bands visited per queue for the oldest waiting task. */
export const MAX_BANDS = 8;

export interface QueueRow {
  name: string;
  ready: number;
  scheduled: number;
  running: number;
  /** Running tasks whose lease deadline has passed (their worker is gone or stalled). */
  expiredLeases: number;
  /** Dead letters whose hash names this queue, among the newest DEAD_SCAN; exact when `deadExact`. */
  dead: number;
  /** Seconds the longest-waiting ready task has waited (since max(enqueued_at, eta) in its payload); null when none or unknown. */
  oldestWaitingSeconds: number | null;
  /** True when more priority bands exist than were visited (the age is then a lower bound). */
  oldestApproximate: boolean;
  /** Due time (ms) of the next scheduled task. */
  nextDueMs: number | null;
  /** The task a worker claims next (the ready set's first member) and its payload, if any. */
  head: { id: string; payload: string | null } | null;
}

export interface Overview {
  queues: QueueRow[];
  /** `P:queues` had more members than MAX_QUEUES; the rest are not listed. */
  queuesCapped: boolean;
  deadTotal: number;
  /** Per-queue dead counts cover every letter (ZCARD P:dead ≤ DEAD_SCAN); otherwise they are lower bounds. */
  deadExact: boolean;
  /** `P:dead` members without a hash among those scanned (potatoq's revoke leaves them; `potatoq dead list` skips them). */
  deadOrphans: number;
  nowMs: number;
}

type R = Array<[Error | null, unknown]>;
const at = (res: R, i: number) => res[i]?.[1];
const flat = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** Start of the next priority band after a ready score (bands are `-p·2^40 + [0, 2^40)`). */
export const nextBand = (score: number) => Math.floor(score / PRIO) * PRIO + PRIO;

export async function readOverview(client: Redis, prefix: string): Promise<Overview> {
  const k = redisKeys(prefix);
  // 1: how many queues, time, dead total and the newest letters' ids.
  const [r1, byQueue] = await Promise.all([
    client.pipeline().scard(k.queues).time().zcard(k.dead).exec() as Promise<R>,
    deadByQueue(client, prefix),
  ]);
  const [card, t, dz] = [Number(at(r1, 0)), at(r1, 1), Number(at(r1, 2))];
  let names: string[];
  if (card <= MAX_QUEUES) names = await client.smembers(k.queues);
  else {
    const seen = new Set<string>();
    let cur = '0';
    do {
      const [next, batch] = await client.sscan(k.queues, cur, 'COUNT', 500);
      cur = next;
      for (const q of batch) seen.add(q);
    } while (cur !== '0' && seen.size < MAX_QUEUES);
    names = [...seen];
  }
  names.sort();
  const queuesCapped = card > MAX_QUEUES;
  names = names.slice(0, MAX_QUEUES);
  const now = timeMs(t);
  // 2: counts and heads.
  const p2 = client.pipeline();
  for (const q of names) {
    p2.zcard(k.ready(q))
      .zcard(k.delayed(q))
      .zcard(k.active(q))
      .zcount(k.active(q), '-inf', now)
      .zrange(k.ready(q), 0, '0', 'WITHSCORES')
      .zrange(k.delayed(q), 0, '0', 'WITHSCORES');
  }
  const r2 = ((await p2.exec()) ?? []) as R;
  const heads = new Map<string, string[]>(); // queue → band heads (ids)
  let hop: Array<[string, number]> = [];
  const rows: QueueRow[] = names.map((name, i) => {
    const head = flat(at(r2, 6 * i + 4));
    const due = flat(at(r2, 6 * i + 5));
    if (head.length === 2) {
      heads.set(name, [head[0]!]);
      hop.push([name, nextBand(Number(head[1]))]);
    }
    return {
      name,
      ready: Number(at(r2, 6 * i)),
      scheduled: Number(at(r2, 6 * i + 1)),
      running: Number(at(r2, 6 * i + 2)),
      expiredLeases: Number(at(r2, 6 * i + 3)),
      dead: 0,
      oldestWaitingSeconds: null,
      oldestApproximate: false,
      nextDueMs: due.length === 2 ? Number(due[1]) : null,
      head: head.length === 2 ? { id: head[0]!, payload: null } : null,
    };
  });
  // 3..: the head of each further priority band (the oldest task of each band is its head).
  for (let band = 1; band < MAX_BANDS && hop.length; band++) {
    const p = client.pipeline();
    for (const [q, start] of hop) p.zrangebyscore(k.ready(q), start, '+inf', 'WITHSCORES', 'LIMIT', 0, 1);
    const r = ((await p.exec()) ?? []) as R;
    const next: Array<[string, number]> = [];
    hop.forEach(([q], i) => {
      const h = flat(at(r, i));
      if (h.length === 2) {
        heads.get(q)!.push(h[0]!);
        next.push([q, nextBand(Number(h[1]))]);
      }
    });
    hop = next;
  }
  const approximate = new Set(hop.map(([q]) => q));
  // Last: the heads' payloads.
  const p3 = client.pipeline();
  const headList = [...heads.entries()].flatMap(([q, hs]) => hs.map((id) => [q, id] as const));
  for (const [, id] of headList) p3.hget(k.job(id), 'p');
  const r3 = (headList.length ? ((await p3.exec()) ?? []) : []) as R;
  const oldest = new Map<string, number>();
  const byName = new Map(rows.map((row) => [row.name, row]));
  headList.forEach(([q, id], i) => {
    const raw = at(r3, i);
    const payload = typeof raw === 'string' ? raw : null;
    const row = byName.get(q);
    if (row?.head?.id === id) row.head.payload = payload;
    const info = payloadInfo(payload, { maxDepth: 1, maxItems: 1, maxString: 1 });
    const since = Math.max(info.enqueuedAt ?? Number.NaN, info.eta ?? 0);
    if (Number.isFinite(since)) oldest.set(q, Math.min(oldest.get(q) ?? Infinity, since));
  });
  const { dead, orphans } = byQueue;
  for (const row of rows) {
    row.dead = dead.get(row.name) ?? 0;
    const since = oldest.get(row.name);
    row.oldestWaitingSeconds = since === undefined ? null : Math.max(0, now / 1000 - since);
    row.oldestApproximate = approximate.has(row.name);
  }
  return { queues: rows, queuesCapped, deadTotal: dz, deadExact: dz <= DEAD_SCAN, deadOrphans: orphans, nowMs: now };
}

/** Letters one dead-count script call tallies (Redis runs each call alone: about 2 ms). */
export const DEAD_SLICE = 2000;

/** Dead letters per queue among the newest DEAD_SCAN, and the members without a hash. */
async function deadByQueue(client: Redis, prefix: string): Promise<{ dead: Map<string, number>; orphans: number }> {
  const dead = new Map<string, number>();
  let orphans = 0;
  let after = ['', ''];
  try {
    for (let scanned = 0; scanned < DEAD_SCAN;) {
      const n = Math.min(DEAD_SLICE, DEAD_SCAN - scanned);
      const out = (await runScript(client, SCRIPTS.deadByQueue, [prefix, n, after[0]!, after[1]!])) as unknown[];
      const got = Number(out[0]);
      orphans += Number(out[1]);
      for (let i = 4; i + 1 < out.length; i += 2) dead.set(String(out[i]), (dead.get(String(out[i])) ?? 0) + Number(out[i + 1]));
      scanned += got;
      if (got < n) break;
      after = [String(out[2]), String(out[3])];
    }
    return { dead, orphans };
  } catch (e) {
    if (!scriptRefused(e)) throw e;
  }
  // No scripts for this user or server: the same tally from the letters' hashes, one HGET each.
  dead.clear();
  orphans = 0;
  const k = redisKeys(prefix);
  const ids = await client.zrevrange(k.dead, 0, DEAD_SCAN - 1);
  const p = client.pipeline();
  for (const id of ids) p.hget(k.job(id), 'q');
  for (const [, q] of (await p.exec()) ?? []) {
    if (typeof q === 'string') dead.set(q, (dead.get(q) ?? 0) + 1);
    else orphans++;
  }
  return { dead, orphans };
}

export interface DeadGroup {
  reason: string;
  count: number;
  queues: string[];
  newestId: string;
}

/** Dead letters grouped by the reason's last line (as `potatoq dead list` shows it), over the newest `scan` letters. */
export async function deadGroups(client: Redis, prefix: string, scan = 10_000): Promise<{ groups: DeadGroup[]; exact: boolean }> {
  const k = redisKeys(prefix);
  const [[, ids], [, total]] = ((await client
    .pipeline()
    .zrevrange(k.dead, 0, scan - 1)
    .zcard(k.dead)
    .exec()) ?? []) as [[unknown, string[]], [unknown, number]];
  const pipe = client.pipeline();
  for (const id of ids) pipe.hmget(k.job(id), 'q', 'r');
  const r = (await pipe.exec()) ?? [];
  const groups = new Map<string, DeadGroup>();
  ids.forEach((id, i) => {
    const [q, reason] = (r[i]?.[1] as Array<string | null>) ?? [];
    if (q === null || q === undefined) return;
    const key = reasonSummary(reason ?? '');
    const g = groups.get(key) ?? { reason: key, count: 0, queues: [], newestId: id };
    g.count++;
    if (!g.queues.includes(q)) g.queues.push(q);
    groups.set(key, g);
  });
  return { groups: [...groups.values()].sort((a, b) => b.count - a.count), exact: total <= scan };
}
