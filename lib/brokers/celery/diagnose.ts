import 'server-only';
import { STUCK_IDS, type QueueStats, type StuckFlag } from '@/lib/brokers/dto';
import { formatAge } from '@/lib/text/format';

// Stuck work on a Celery app, from what its broker holds and what its live workers answer to
// broadcast `inspect` (a bounded wait: a worker that does not answer within it counts as gone).
// The words are Celery's and kombu's; the console never changes reserved or running messages.

export type Known<T> = { value: T } | { why: string };

/** A message of kombu's `unacked` hash (Redis): a worker reserved it. */
export interface HeldFact {
  id: string;
  queue: string;
  task: string;
  /** Epoch seconds it was delivered (unacked_index), null when not indexed. */
  deliveredAt: number | null;
  etaMs: number | null;
  /** The message's own hard time limit (header `timelimit[0]`), seconds. */
  timeLimit: number | null;
}

/** One task a live worker reports (`inspect active`, `reserved`, `scheduled`). */
export interface LiveTask {
  id: string;
  task: string;
  queue: string | null;
  /** Epoch seconds it started (active only). */
  startedAt: number | null;
  etaMs: number | null;
}

export interface LiveWorker {
  host: string;
  queues: string[];
  active: LiveTask[];
  /** Reserved (prefetched) and scheduled (held until their ETA) requests. */
  waiting: LiveTask[];
  /** The pool's hard time limit (`--time-limit`, `inspect stats` pool.timeouts), null when none. */
  hardLimit: number | null;
}

/** Messages waiting in a queue past their ETA by more than the threshold. */
export interface LateFact {
  queue: string;
  count: number;
  capped: boolean;
  oldestSeconds: number;
  ids: string[];
}

export interface CeleryFacts {
  brokerId: string;
  /** Waiting counts (`ready`, plus `scheduled` where the broker splits them) and, on RabbitMQ, consumers. */
  queues: QueueStats[];
  live: LiveWorker[];
  /** kombu's unacked hash (Redis); why where the broker does not show reserved messages. */
  held: Known<{ items: HeldFact[]; capped: boolean }>;
  /** RabbitMQ: unacknowledged messages per queue (management API); why when unknown. */
  unacked: Known<Map<string, number>> | null;
  visibilityTimeout: number | null;
  /** Waiting messages past their ETA (Redis lists); why where they cannot be read. */
  late: Known<LateFact[]>;
  overdueSeconds: number;
  inspectMs: number;
  revoke: { on: boolean; why?: string };
  nowMs: number;
}

/** Past a hard time limit by this much, the pool should have killed the task. */
const TIME_LIMIT_GRACE_S = 30;
export const CELERY_NEVER_RUNNING =
  'The console never changes running or reserved messages: it cannot requeue, revoke or acknowledge them while a worker holds them.';
export const age = (s: number) => formatAge(Math.max(0, s));
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
export const isAre = (n: number) => (n === 1 ? 'is' : 'are');
export const itThem = (n: number) => (n === 1 ? 'it' : 'them');
const RESTORE =
  "kombu's restore sweep (restore_visible, run by every live worker about every unacked_restore_interval × unacked_restore_throttle seconds, 100 s by default)";
const SOLO = 'a worker with the solo pool does not answer while it runs a task';

export function liveIds(live: LiveWorker[]): Map<string, LiveWorker> {
  const by = new Map<string, LiveWorker>();
  for (const w of live) for (const t of [...w.active, ...w.waiting]) by.set(t.id, w);
  return by;
}

function group<T extends { queue: string }>(items: T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) m.set(it.queue, [...(m.get(it.queue) ?? []), it]);
  return m;
}

export const linkFor = (ids: string[], count: number, queue: string, state: string): StuckFlag['link'] =>
  ids.length === 1 && count === 1 ? { page: 'task', id: ids[0]! } : { page: 'queue', queue, state };

/** Redis: reserved messages no live worker reports holding; they come back after the visibility timeout. */
export function lostHeld(f: CeleryFacts, items: HeldFact[]): StuckFlag[] {
  const holders = liveIds(f.live);
  const vt = f.visibilityTimeout ?? 3600;
  const now = f.nowMs / 1000;
  const lost = items.filter((h) => !holders.has(h.id));
  return [...group(lost)].map(([queue, hs]) => {
    const oldest = Math.min(...hs.map((h) => h.deliveredAt ?? now));
    const backIn = oldest + vt - now;
    const when =
      backIn > 0
        ? `kombu puts ${itThem(hs.length)} back in the queue once the visibility timeout (${vt} s) has passed, in ${age(backIn)}`
        : `the visibility timeout (${vt} s) passed ${age(-backIn)} ago, and no live worker's restore sweep has put ${itThem(hs.length)} back yet`;
    const ids = hs.map((h) => h.id);
    return {
      check: 'worker-lost' as const,
      queue,
      ids: ids.slice(0, STUCK_IDS),
      count: hs.length,
      seconds: now - oldest,
      cause: `${plural(hs.length, 'message')} of queue ${queue} ${isAre(hs.length)} reserved (kombu's unacked hash), but no live worker reports ${itThem(hs.length)} as active, reserved or scheduled (${f.live.length ? `${plural(f.live.length, 'worker')} answered within ${f.inspectMs} ms` : `no worker answered within ${f.inspectMs} ms`}; ${SOLO}): ${when}.`,
      can: f.live.length
        ? `${RESTORE} moves ${itThem(hs.length)} back to the queue after the visibility timeout; then ${itThem(hs.length)} wait again and the console can revoke ${itThem(hs.length)}. See the Workers page for who is alive.`
        : `No worker is alive, so nothing restores ${itThem(hs.length)}: start a worker (any queue of this broker); ${RESTORE} then moves ${itThem(hs.length)} back to the queue after the visibility timeout.`,
      cannot: CELERY_NEVER_RUNNING,
      link: linkFor(ids, hs.length, queue, 'running'),
    };
  });
}

/** RabbitMQ: unacknowledged messages beyond what the live workers report holding. */
export function lostUnacked(f: CeleryFacts, unacked: Map<string, number>): StuckFlag[] {
  const heldBy = new Map<string, number>();
  for (const w of f.live) for (const t of [...w.active, ...w.waiting]) if (t.queue) heldBy.set(t.queue, (heldBy.get(t.queue) ?? 0) + 1);
  const out: StuckFlag[] = [];
  for (const [queue, n] of unacked) {
    const excess = n - (heldBy.get(queue) ?? 0);
    if (excess <= 0) continue;
    out.push({
      check: 'worker-lost',
      queue,
      ids: [],
      count: excess,
      seconds: null,
      cause: `${plural(excess, 'message')} of queue ${queue} ${isAre(excess)} unacknowledged in RabbitMQ, but no live worker reports ${itThem(excess)} (${f.live.length ? `${plural(f.live.length, 'worker')} answered within ${f.inspectMs} ms` : `no worker answered within ${f.inspectMs} ms`}): ${excess === 1 ? 'its consumer does' : 'their consumers do'} not answer (hung or stopped, ${SOLO}, or another app's consumer).`,
      can: "RabbitMQ puts them back in the queue as soon as their consumer's connection closes (at the latest when its heartbeat times out); restarting that worker does it now. See the Workers page for who answers.",
      cannot: CELERY_NEVER_RUNNING,
      link: { page: 'queue', queue, state: 'running' },
    });
  }
  return out;
}

export function overTime(f: CeleryFacts, held: HeldFact[]): StuckFlag[] {
  const limits = new Map(held.map((h) => [h.id, h.timeLimit]));
  const now = f.nowMs / 1000;
  const out: StuckFlag[] = [];
  for (const w of f.live) {
    for (const t of w.active) {
      const limit = limits.get(t.id) ?? w.hardLimit;
      if (!limit || t.startedAt === null) continue;
      const runningFor = now - t.startedAt;
      if (runningFor <= limit + TIME_LIMIT_GRACE_S) continue;
      out.push({
        check: 'over-time-limit',
        queue: t.queue,
        ids: [t.id],
        count: 1,
        seconds: runningFor,
        cause: `${t.task} has been running on ${w.host} for ${age(runningFor)}, past its hard time limit of ${limit} s: its pool should have killed it (the solo and threads pools do not enforce time limits).`,
        can: 'Look at the worker on the Workers page: restarting it ends the task (`celery control terminate` is not sent by the console).',
        cannot: CELERY_NEVER_RUNNING,
        link: { page: 'task', id: t.id },
      });
    }
  }
  // A reserved message held past the visibility timeout by a live worker comes back while it runs.
  const holders = liveIds(f.live);
  const vt = f.visibilityTimeout;
  if (vt !== null)
    for (const h of held) {
      const w = holders.get(h.id);
      if (!w || h.deliveredAt === null || now - h.deliveredAt <= vt) continue;
      if (h.etaMs !== null && h.etaMs / 1000 > h.deliveredAt + vt) continue;
      out.push({
        check: 'over-time-limit',
        queue: h.queue,
        ids: [h.id],
        count: 1,
        seconds: now - h.deliveredAt,
        cause: `${h.task} was reserved by ${w.host} ${age(now - h.deliveredAt)} ago, longer than the visibility timeout (${vt} s): ${RESTORE} puts it back in the queue and another worker runs it again while this one still holds it.`,
        can: "Raise the app's broker_transport_options visibility_timeout above the longest task (and ETA); the Workers page shows who holds it.",
        cannot: CELERY_NEVER_RUNNING,
        link: { page: 'task', id: h.id },
      });
    }
  return out;
}
