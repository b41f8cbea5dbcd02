import 'server-only';
import type { Redis } from 'ioredis';
import type { DeadTally } from './dead-tally';
import { redisKeys } from './keys';
import { listQueues, overviewPipelined } from './overview-pipelined';
import { oldestWaiting, type RawOverview } from './overview-raw';
import { overviewByScript } from './overview-script';
import { runScript, scriptRefused } from '@/lib/transports/redis/scripts';
import { SCRIPTS } from './scripts';

// The overview: every queue of `P:queues` with its counts, whatever the depth in one script call
// per ONE_CALL queues (overview-script.ts; without scripts 3 + MAX_BANDS pipelined round trips,
// overview-pipelined.ts). The dead letters' queues are tallied alongside by a read-only script,
// DEAD_SCAN / DEAD_SLICE calls in turn (SCRIPTS.deadByQueue); where scripts are refused (an ACL
// without EVALSHA), by pipelined HGETs.

/** Queues listed at most (`P:queues` is never pruned by potatoq): 10,000 queues are 200 script
 *  calls of ONE_CALL queues, IN_FLIGHT at a time (overview-script.ts). */
export const MAX_QUEUES = 10_000;
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

/** The per-queue reads: one script call where scripts run, else pipelined commands. */
async function readQueues(client: Redis, prefix: string): Promise<RawOverview> {
  try {
    const r = await overviewByScript(client, prefix, MAX_BANDS, (card) => listQueues(client, prefix, card, MAX_QUEUES));
    const queues = r.queues.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { queues, queuesCapped: r.card > MAX_QUEUES, deadTotal: r.deadTotal, nowMs: r.nowMs };
  } catch (e) {
    if (!scriptRefused(e)) throw e;
  }
  return overviewPipelined(client, prefix, { maxQueues: MAX_QUEUES, bands: MAX_BANDS });
}

/** `tally`: the dead counts kept between polls (dead-tally.ts); without it every call counts. */
export async function readOverview(client: Redis, prefix: string, tally?: DeadTally): Promise<Overview> {
  const count = (on: Redis) => deadByQueue(on, prefix);
  const [o, { dead, orphans }] = await Promise.all([readQueues(client, prefix), tally ? tally.get(count) : count(client)]);
  const queues = o.queues.map((q): QueueRow => ({
    name: q.name,
    ready: q.ready,
    scheduled: q.scheduled,
    running: q.running,
    expiredLeases: q.expiredLeases,
    dead: dead.get(q.name) ?? 0,
    oldestWaitingSeconds: oldestWaiting(q.heads, o.nowMs),
    oldestApproximate: q.approximate,
    nextDueMs: q.nextDueMs,
    head: q.heads[0] ?? null,
  }));
  return {
    queues,
    queuesCapped: o.queuesCapped,
    deadTotal: o.deadTotal,
    deadExact: o.deadTotal <= DEAD_SCAN,
    deadOrphans: orphans,
    nowMs: o.nowMs,
  };
}

/** Letters one dead-count script call tallies (Redis runs each call alone: about 2 ms). */
export const DEAD_SLICE = 2000;

/** Dead letters per queue among the newest DEAD_SCAN, and the members without a hash. */
export async function deadByQueue(client: Redis, prefix: string): Promise<{ dead: Map<string, number>; orphans: number }> {
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
