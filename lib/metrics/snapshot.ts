import 'server-only';
import { DEAD, countOf, defaultState, type BrokerOverview } from '@/lib/brokers/dto';
import { brokerList } from '@/lib/brokers/service';
import { sampleBy, type BrokerSample } from './broker-reads';
import { getMetricsConfig } from './config';

// One read of every broker for /metrics: the overview's own capped counts (the same cost as
// the overview page), taken at most once per CACHE_MS however many scrapers ask, and shared by
// scrapes that arrive while it is being taken. It waits for the brokers at most the metrics
// budget: a broker past it is reported by its last known read, marked stale.

/** How long one snapshot answers scrapes. Scraping more often returns the same numbers. */
export const CACHE_MS = 15_000;

export type { BrokerSample };

export interface Snapshot {
  /** Epoch milliseconds when the reads started. */
  takenAt: number;
  brokers: BrokerSample[];
}

/** Each broker's read starts this much after the one before it, the spread kept within
 *  `SPREAD_MAX_MS`: fifty brokers are asked over one second, not in the same millisecond. */
export const SPREAD_STEP_MS = 20;
export const SPREAD_MAX_MS = 1000;

/** When the read of broker `i` of `n` starts, in ms after the first (0 for one broker). */
export const spreadDelay = (i: number, n: number, maxMs = SPREAD_MAX_MS) =>
  n <= 1 ? 0 : Math.round((i * Math.min(maxMs, SPREAD_STEP_MS * n)) / n);

export interface SnapshotOptions {
  now?: () => number;
  /** The longest spread of the reads' starts (`spreadDelay`); 0 asks every broker at once. */
  spreadMs?: number;
  /** How long the snapshot waits for the reads, from its start (POTATOQ_CONSOLE_METRICS_BUDGET_MS). */
  budgetMs?: number;
}

/** Reads every configured broker, each on its own and their starts spread (`spreadDelay`): one
 *  that is down is a sample with its error; one that has not answered within the budget is its
 *  last known sample marked stale (lib/metrics/broker-reads.ts), so no broker holds the answer. */
export async function takeSnapshot(o: SnapshotOptions = {}): Promise<Snapshot> {
  const now = o.now ?? Date.now;
  const budgetMs = o.budgetMs ?? getMetricsConfig().budgetMs;
  const takenAt = now();
  const deadline = takenAt + budgetMs;
  const list = brokerList();
  const brokers = await Promise.all(
    list.map(async (b, i): Promise<BrokerSample> => {
      const delay = spreadDelay(i, list.length, o.spreadMs);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      return sampleBy(b, deadline, budgetMs, now);
    }),
  );
  return { takenAt, brokers };
}

/**
 * A value computed at most once per `ttlMs`; callers during a computation share it. A failed
 * computation is not kept (the next caller tries again).
 */
export function cached<T>(load: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let value: { at: number; v: T } | null = null;
  let inflight: Promise<T> | null = null;
  return () => {
    if (value && now() - value.at < ttlMs) return Promise.resolve(value.v);
    inflight ??= load().then(
      (v) => {
        value = { at: now(), v };
        inflight = null;
        return v;
      },
      (e: unknown) => {
        inflight = null;
        throw e;
      },
    );
    return inflight;
  };
}

export interface QueueSample {
  broker: string;
  queue: string;
  /** Declared state key (and `dead`) -> count; unknown counts are left out, never 0. */
  counts: Array<{ state: string; value: number; capped: boolean }>;
  /** Seconds the oldest task in the waiting state has waited; 0 when none waits; null when unknown. */
  oldestAgeSeconds: number | null;
}

/** The queues of one broker's overview in the adapter's declared states, plus dead letters. */
export function queueSamples(o: BrokerOverview, at: number): QueueSample[] {
  const declared = o.model?.states.map((s) => s.key);
  // The work a worker may claim now, whose oldest wait this is: the state that plays `waiting`
  // (else the first declared; without a model, the first the adapter counted).
  const waiting = o.model ? defaultState(o.model.states)?.key : undefined;
  return o.queues.map((q) => {
    // The declared states (without a model: the keys the adapter counted), then dead letters.
    const states = [...(declared ?? Object.keys(q.counts)), DEAD];
    const counts = states.flatMap((state) => {
      const value = countOf(q, state);
      return value === null ? [] : [{ state, value, capped: q.capped?.[state] !== undefined }];
    });
    const key = waiting ?? (states[0] === DEAD ? undefined : states[0]);
    const ready = key === undefined ? null : countOf(q, key);
    const oldest = q.oldestWaitingAt ? Math.max(0, (at - Date.parse(q.oldestWaitingAt)) / 1000) : ready === 0 ? 0 : null;
    return { broker: o.id, queue: q.name, counts, oldestAgeSeconds: oldest !== null && Number.isFinite(oldest) ? oldest : null };
  });
}

/** The sum of a queue's known counts, dead letters included: its backlog. */
const weight = (q: QueueSample) => q.counts.reduce((t, c) => t + c.value, 0);

/** At most `max` queues, the ones with the most work first (the sum of their known counts, then
 *  by name); `rest` holds the others. One sort of the broker's queues, whatever their number. */
export function topQueues(samples: QueueSample[], max: number): { kept: QueueSample[]; rest: QueueSample[] } {
  if (samples.length <= max) return { kept: samples, rest: [] };
  const sorted = [...samples].sort((a, b) => weight(b) - weight(a) || (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0));
  return { kept: sorted.slice(0, max), rest: sorted.slice(max) };
}

/**
 * At most `max` queues of one broker (`topQueues`), and the rest summed into one `other`
 * sample: per state the sum (a lower bound when any part is), the longest wait. `omitted` is
 * how many queues it holds.
 */
export function limitQueues(samples: QueueSample[], max: number, other: string): { kept: QueueSample[]; omitted: number } {
  const { kept, rest } = topQueues(samples, max);
  if (!rest.length) return { kept, omitted: 0 };
  const counts = new Map<string, { state: string; value: number; capped: boolean }>();
  let oldest: number | null = null;
  for (const q of rest) {
    for (const c of q.counts) {
      const sum = counts.get(c.state) ?? { state: c.state, value: 0, capped: false };
      counts.set(c.state, { state: c.state, value: sum.value + c.value, capped: sum.capped || c.capped });
    }
    if (q.oldestAgeSeconds !== null) oldest = Math.max(oldest ?? 0, q.oldestAgeSeconds);
  }
  const broker = samples[0]!.broker;
  return { kept: [...kept, { broker, queue: other, counts: [...counts.values()], oldestAgeSeconds: oldest }], omitted: rest.length };
}
