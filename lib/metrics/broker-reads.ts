import 'server-only';
import type { BrokerEntry } from '@/lib/brokers/naming';
import { overview, toConsoleError } from '@/lib/brokers/service';
import type { BrokerOverview } from '@/lib/brokers/dto';

// One read of a broker's overview in flight at a time, whoever asks (the /metrics snapshot, the
// trends sampler, the alert evaluator), and the last one that finished. A snapshot waits for a
// read only until its budget; the read goes on and its answer is the broker's last known sample
// for the next snapshot. A hung broker thus has one read outstanding, never one per scrape.

export interface BrokerSample extends BrokerEntry {
  ok: boolean;
  /** How long the broker took to answer its overview (or to fail). */
  seconds: number;
  error: { code: string; message: string } | null;
  overview: BrokerOverview | null;
  /** Epoch milliseconds when this sample's read started (absent: when the snapshot started). */
  readAt?: number;
  /** The broker's newest read did not finish within the snapshot's budget: this sample is the
   *  last read that did (or, never read yet, a failure saying so); the read goes on. */
  stale?: boolean;
  /** Stale and never read yet: `error` says the read goes on; not a failed read. */
  unread?: boolean;
}

interface Slot {
  inflight: Promise<BrokerSample> | null;
  /** Epoch ms when the read in flight started. */
  startedAt: number;
  last: BrokerSample | null;
}

// Next may load this module more than once per process: one table for all copies.
const g = globalThis as unknown as { __potatoqMetricReads?: Map<string, Slot> };
const slots = () => (g.__potatoqMetricReads ??= new Map());

/** Reads one broker's overview into a sample: a failure is a sample with its error, never a throw. */
async function readSample(b: BrokerEntry, readAt: number): Promise<BrokerSample> {
  const start = performance.now();
  try {
    const o = await overview(b.id);
    // The broker's own read time: the overview may be a read shared with the pages, answered
    // at once (lib/brokers/read-cache.ts).
    const seconds = (o.readMs ?? performance.now() - start) / 1000;
    return { ...b, ok: true, seconds, error: null, overview: o, readAt, stale: false };
  } catch (e) {
    const err = toConsoleError(e);
    const seconds = (performance.now() - start) / 1000;
    return { ...b, ok: false, seconds, error: { code: err.code, message: err.message }, overview: null, readAt, stale: false };
  }
}

/** The broker's read: the one in flight, else a new one. It never rejects. */
export function readBroker(b: BrokerEntry, now: () => number = Date.now): Promise<BrokerSample> {
  let s = slots().get(b.id);
  if (!s) slots().set(b.id, (s = { inflight: null, startedAt: 0, last: null }));
  if (s.inflight) return s.inflight;
  const slot = s;
  slot.startedAt = now();
  slot.inflight = readSample(b, slot.startedAt).then((sample) => {
    slot.last = sample;
    slot.inflight = null;
    return sample;
  });
  return slot.inflight;
}

/** What a snapshot reports for a broker whose read did not finish within `budgetMs`: its last
 *  finished read marked stale, else (never read yet) a failure saying the read goes on. */
export function staleSample(b: BrokerEntry, budgetMs: number, now: () => number = Date.now): BrokerSample {
  const s = slots().get(b.id);
  if (s?.last) return { ...s.last, ...b, stale: true };
  const readAt = s?.startedAt ?? now();
  const message = `no answer within the metrics budget of ${budgetMs / 1000}s; the read goes on and a later snapshot has its answer`;
  const error = { code: 'BrokerTimeout', message };
  return { ...b, ok: false, seconds: (now() - readAt) / 1000, error, overview: null, readAt, stale: true, unread: true };
}

/**
 * The broker's sample by `deadline` (epoch ms): its read if it finishes by then, else
 * `staleSample`. The read itself is bounded by the service's read timeout.
 */
export async function sampleBy(b: BrokerEntry, deadline: number, budgetMs: number, now: () => number = Date.now): Promise<BrokerSample> {
  // Past the deadline already (a spread longer than the budget): the read starts for the next
  // snapshot, and answers now only if it is shared and ready.
  const left = deadline - now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), Math.max(0, left))));
  try {
    return (await Promise.race([readBroker(b, now), late])) ?? staleSample(b, budgetMs, now);
  } finally {
    clearTimeout(timer);
  }
}

/** Tests only: forget every broker's reads. */
export function resetBrokerReads(): void {
  g.__potatoqMetricReads?.clear();
}
