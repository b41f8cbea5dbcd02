import 'server-only';
import { DecodeMemo } from '../decode-memo';
import { payloadInfo } from './rows';

// What the overview's reads return before they are mapped (by script or by pipelined commands:
// the same shape either way), and the one mapping both share.

export interface RawQueue {
  name: string;
  ready: number;
  scheduled: number;
  running: number;
  expiredLeases: number;
  nextDueMs: number | null;
  /** The head of each priority band visited, in claim order: the first is the next claim. */
  heads: Array<{ id: string; payload: string | null }>;
  /** More bands may follow the last one visited (the oldest age is then a lower bound). */
  approximate: boolean;
}

export interface RawOverview {
  queues: RawQueue[];
  queuesCapped: boolean;
  deadTotal: number;
  nowMs: number;
}

/** A band head's enqueue time (seconds): max(enqueued_at, eta) from its payload; null when unknown. */
const sinceMemo = new DecodeMemo<number | null>(4000, 16 * 1024);

/** Every poll reads the same heads again: each payload is decoded once (within the memo's bounds). */
export function waitingSince(payload: string): number | null {
  return sinceMemo.get(payload, () => {
    const info = payloadInfo(payload, { maxDepth: 1, maxItems: 1, maxString: 1 });
    const since = Math.max(info.enqueuedAt ?? Number.NaN, info.eta ?? 0);
    return Number.isFinite(since) ? since : null;
  });
}

/** Seconds the longest-waiting of the heads has waited at `nowMs`; null when none is known. */
export function oldestWaiting(heads: RawQueue['heads'], nowMs: number): number | null {
  let oldest = Infinity;
  for (const h of heads) {
    const since = h.payload === null ? null : waitingSince(h.payload);
    if (since !== null) oldest = Math.min(oldest, since);
  }
  return oldest === Infinity ? null : Math.max(0, nowMs / 1000 - oldest);
}
