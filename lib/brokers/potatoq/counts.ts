import 'server-only';
import type { CappedCount, Counted, QueueStats, WorkerInfo } from '@/lib/brokers/schema';

// Queue counts shared by potatoq's table brokers (PostgreSQL, SQLite).

/** potatoq's counted states (its declared states' keys) and its dead letters. */
export type CountKey = 'ready' | 'scheduled' | 'running' | 'dead';
const STATE_KEYS = ['ready', 'scheduled', 'running'] as const;

/** A queue's count of one of potatoq's states (`dead` included); null when unknown. */
export const countIn = (q: Counted, k: CountKey): number | null => (k === 'dead' ? q.dead : (q.counts[k] ?? null));

/** Sets a queue's count of one of potatoq's states (`dead` included). */
export function setCount(q: Counted, k: CountKey, n: number | null): void {
  if (k === 'dead') q.dead = n;
  else q.counts[k] = n;
}

/** potatoq's per-state counts in the contract's shape (keyed by its declared states). */
export const pqCounts = (ready: number | null, scheduled: number | null, running: number | null): Record<string, number | null> => ({
  ready,
  scheduled,
  running,
});

/** A queue with nothing counted yet. */
export const emptyQueue = (name: string): QueueStats => ({
  name,
  counts: pqCounts(0, 0, 0),
  dead: 0,
  oldestWaitingAt: null,
  tasks: null,
});

const byName = (a: QueueStats, b: QueueStats) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Adds the queues a live worker consumes (shown even when empty), sorted by name. */
export function withWorkerQueues(queues: QueueStats[], workers: WorkerInfo[]): QueueStats[] {
  const names = new Set(queues.map((q) => q.name));
  const out = [...queues];
  for (const w of workers) {
    if (w.status === 'dead') continue;
    for (const q of w.queues) {
      if (names.has(q)) continue;
      names.add(q);
      out.push(emptyQueue(q));
    }
  }
  return out.sort(byName);
}

/** The overview's default bounds: ready rows counted per queue, and rows of each other state
 *  read (all queues at once) to count them per queue. */
export const DEFAULT_COUNT_CAP = 1000;
export const DEFAULT_COUNT_SCAN = 50_000;

/**
 * One state's rows in every queue, read once up to `limit + 1` rows and counted per queue.
 * potatoq indexes scheduled, running and dead rows by time or worker, never by queue, so a
 * per-queue bound cannot stop early: the scan is bounded for the whole state instead.
 */
export interface StateScan {
  key: Exclude<CountKey, 'ready'>;
  rows: Array<{ queue: string; n: number }>;
  limit: number;
}

const NOUN: Record<StateScan['key'], string> = { scheduled: 'scheduled tasks', running: 'running tasks', dead: 'dead letters' };

/** Whether the scan read every row of its state (then each queue's count is exact). */
export const scanFinished = (s: StateScan) => s.rows.reduce((t, r) => t + r.n, 0) <= s.limit;

/** Why a count from an unfinished scan is only a lower bound, in the operator's words. */
export const scanWhy = (s: StateScan) =>
  `more than ${s.limit.toLocaleString('en-US')} ${NOUN[s.key]} in all queues: the console counted only that many (option countScan), so this is a lower bound`;

/** Why a ready count stopped, in the operator's words. */
export const readyCapWhy = (cap: number) =>
  `counted up to ${cap.toLocaleString('en-US')} ready tasks per queue (option countCap); the queue has more`;

/**
 * Puts the scans' counts into `queues` (adding the queues only a scan found) and returns them
 * sorted by name. A finished scan's counts are exact for every queue. An unfinished one's are
 * lower bounds for every queue, the ones it never reached included (at least 0, not 0), with
 * `estimate(key, queue)` where the store has one.
 */
export function applyScans(
  queues: QueueStats[],
  scans: StateScan[],
  estimate: (key: CountKey, queue: string) => number | null = () => null,
): QueueStats[] {
  const all = new Map(queues.map((q) => [q.name, q]));
  for (const s of scans) {
    for (const r of s.rows) {
      let q = all.get(r.queue);
      if (!q) all.set(r.queue, (q = emptyQueue(r.queue)));
      setCount(q, s.key, r.n);
    }
  }
  for (const s of scans) {
    if (scanFinished(s)) continue;
    const why = scanWhy(s);
    for (const q of all.values()) {
      const seen = countIn(q, s.key) ?? 0;
      const e = estimate(s.key, q.name);
      const c: CappedCount = { atLeast: seen, estimate: e === null ? null : Math.max(e, seen), why };
      setCount(q, s.key, seen);
      (q.capped ??= {})[s.key] = c;
    }
  }
  return [...all.values()].sort(byName);
}

/** Sums per-queue counts; a total built from a capped count is itself a lower bound. */
export function totalsOf(queues: QueueStats[]): { totals: Counted; capped: Partial<Record<CountKey, CappedCount>> | undefined } {
  const keys: CountKey[] = [...STATE_KEYS, 'dead'];
  const totals: Counted = { counts: pqCounts(0, 0, 0), dead: 0 };
  const capped: Partial<Record<CountKey, CappedCount>> = {};
  for (const k of keys) {
    let total = 0;
    let est = 0;
    let anyCapped = false;
    let estKnown = true;
    let why: string | undefined;
    for (const q of queues) {
      total += countIn(q, k) ?? 0;
      const c = q.capped?.[k];
      if (c) {
        anyCapped = true;
        why ??= c.why;
        if (c.estimate === null) estKnown = false;
        est += c.estimate ?? 0;
      } else est += countIn(q, k) ?? 0;
    }
    setCount(totals, k, total);
    if (anyCapped) capped[k] = { atLeast: total, estimate: estKnown ? est : null, ...(why ? { why } : {}) };
  }
  return { totals, capped: Object.keys(capped).length ? capped : undefined };
}
