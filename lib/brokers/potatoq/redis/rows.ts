import 'server-only';
import { decodePayload, type DecodedPayload } from '@/lib/potatoq';
import { type TypedLimits } from '@/lib/pyvalues';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { DecodeMemo } from '../decode-memo';

// What the Redis reads return: plain, JSON-safe rows (ids and scores as strings, times as
// Unix milliseconds or seconds as named). The adapter maps them onto the contract's DTOs.

/** `st` as potatoq writes it; `missing` when a set member has no hash (a dangling member). */
export type HashState = 'ready' | 'delayed' | 'active' | 'dead' | 'missing' | 'other';

export interface PayloadInfo {
  task: string | null;
  /** Unix seconds from the payload (`enqueued_at`, `eta`), display only. */
  enqueuedAt: number | null;
  eta: number | null;
  args: TypedValue | null;
  kwargs: TypedValue | null;
  /** Why potatoq cannot decode it (its own wording), or null. Never thrown. */
  problem: { kind: string; reason: string } | null;
}

export interface TaskRow extends PayloadInfo {
  id: string;
  /** The sorted-set score as Redis wrote it: claim rank (ready), due ms (scheduled), lease deadline ms (running), died ms (dead). */
  score: string;
  queue: string | null;
  state: HashState;
  priority: string | null;
  deliveries: number | null;
  /** Running only: the worker node id and child pid holding the lease. */
  worker: string | null;
  pid: string | null;
  /** Dead only: the full reason and died time (ms). */
  reason: string | null;
  diedAtMs: number | null;
  /** Scheduled: due time ms; running: lease deadline ms. */
  atMs: number | null;
  /** Running: the lease deadline has passed (the worker is gone or stalled; the reaper will requeue or dead-letter it). */
  leaseExpired: boolean;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const LIST_LIMITS: TypedLimits = { maxDepth: 6, maxItems: 20, maxString: 200 };

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Task, times and arguments of a stored payload (bytes: invalid UTF-8 is flagged as potatoq's decoder would fail on it). */
export function payloadInfo(raw: string | Uint8Array | null, limits: TypedLimits = LIST_LIMITS): PayloadInfo {
  if (raw === null)
    return {
      task: null,
      enqueuedAt: null,
      eta: null,
      args: null,
      kwargs: null,
      problem: { kind: 'missing', reason: 'the task has no payload (p)' },
    };
  // Rows are read on every poll of a list: the default limits' answer is remembered per payload.
  if (limits === LIST_LIMITS) return { ...infoMemo.get(raw, () => decodeInfo(raw, limits)) };
  return decodeInfo(raw, limits);
}

const infoMemo = new DecodeMemo<PayloadInfo>(2000, 2048);

function decodeInfo(raw: string | Uint8Array, limits: TypedLimits): PayloadInfo {
  const d: DecodedPayload = decodePayload(raw, limits);
  if (d.kind === 'foreign')
    return { task: d.task, enqueuedAt: null, eta: null, args: null, kwargs: null, problem: { kind: d.foreign, reason: d.reason } };
  return { task: d.task, enqueuedAt: num(d.enqueuedAt), eta: num(d.eta), args: d.args, kwargs: d.kwargs, problem: null };
}

export function hashState(st: string | null | undefined): HashState {
  if (st === null || st === undefined) return 'missing';
  return st === 'ready' || st === 'delayed' || st === 'active' || st === 'dead' ? st : 'other';
}

/** The HMGET fields every row reads, in this order. */
export const ROW_FIELDS = ['q', 'p', 'pr', 'd', 'st', 'tok', 'w', 'pid', 'r', 'died'] as const;

/** `v` is the HMGET of ROW_FIELDS as bytes (the payload is decoded strictly, the rest as UTF-8). */
export function toRow(
  id: string,
  score: string,
  raw: Array<Buffer | string | null>,
  nowMs: number,
  kind: 'ready' | 'delayed' | 'active' | 'dead',
): TaskRow {
  const v = raw.map((x) => (x === null || x === undefined ? null : x.toString()));
  const p = raw[1] ?? null;
  const [q, , pr, d, st, , w, pid, r, died] = v;
  const state = hashState(st);
  const at = kind === 'delayed' || kind === 'active' ? Number(score) : null;
  return {
    id,
    score,
    queue: q ?? null,
    state,
    priority: pr ?? null,
    deliveries: d === null || d === undefined ? null : Number(d),
    worker: kind === 'active' ? (w ?? null) : null,
    pid: kind === 'active' ? (pid ?? null) : null,
    reason: kind === 'dead' ? (r ?? null) : null,
    diedAtMs: kind === 'dead' ? Number(died ?? score) : null,
    atMs: at,
    leaseExpired: kind === 'active' && at !== null && at < nowMs,
    ...(state === 'missing'
      ? { task: null, enqueuedAt: null, eta: null, args: null, kwargs: null, problem: null }
      : payloadInfo(typeof p === 'string' ? p : p === null ? null : new Uint8Array(p))),
  };
}

/** Cursor = the last row's score and id (opaque, URL-safe). */
export function encodeCursor(score: string, id: string): string {
  return Buffer.from(JSON.stringify([score, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { score: string; id: string } | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && Number.isFinite(Number(v[0]))) {
      return { score: v[0], id: v[1] };
    }
  } catch {
    // fall through
  }
  return null;
}

/** Redis TIME reply → ms. */
export function timeMs(t: unknown): number {
  if (Array.isArray(t) && t.length === 2) return Number(t[0]) * 1000 + Math.floor(Number(t[1]) / 1000);
  return Date.now();
}
