// Output DTOs: what adapters return and the API and the UI read. Plain JSON-safe interfaces
// (ids and big numbers as strings, timestamps as ISO strings). Client-safe: no server imports.
// Re-exported by schema.ts, which keeps the zod input schemas.
import type { DecodedPayload, PValue, ForeignKind } from '@/lib/potatoq/types';

/** The queue systems a broker entry may name (`"kind"`); the registry says which are supported. */
export const SYSTEM_KINDS = ['potatoq', 'celery', 'sdj', 'queueflow'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];

/** The store a broker runs on, for display (`sqlite`, `postgres`, `rabbitmq`, `redis`, ...): the
 *  system module picks it from the URL. Nothing branches on it outside the registry. */
export type BrokerKind = string;

/** The closed set of things an adapter may be able to do. */
export const CAPABILITIES = [
  'listReady',
  'listScheduled',
  'listRunning',
  'browseDead',
  'replay',
  'discard',
  'revoke',
  'purge',
  'enqueue',
  'results',
  'workers',
] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type Capabilities = Record<Capability, { on: boolean; why?: string }>;

/** The capabilities that change a broker: what read-only takes away. The one list of them. */
export const WRITE_ACTIONS = ['replay', 'discard', 'revoke', 'purge', 'enqueue'] as const satisfies readonly Capability[];
export type WriteAction = (typeof WRITE_ACTIONS)[number];

/** `caps` with every write turned off for `why` (read-only configuration, a standby, ...). */
export function withoutWrites(caps: Capabilities, why: string): Capabilities {
  const out = { ...caps };
  for (const k of WRITE_ACTIONS) out[k] = { on: false, why };
  return out;
}

export type TaskState = 'ready' | 'scheduled' | 'running';

export type CountKey = 'ready' | 'scheduled' | 'running' | 'dead';

/** A count that stopped at the adapter's cap (large PostgreSQL queues): the matching count
 *  field then holds `atLeast`; `estimate` is the planner's estimate (null when unknown).
 *  Shown as "10,000+ (≈ 1.2M)". */
export interface CappedCount {
  atLeast: number;
  estimate: number | null;
}

export interface QueueStats {
  name: string;
  ready: number | null;
  scheduled: number | null;
  running: number | null;
  dead: number | null;
  /** ISO time the oldest ready task was enqueued (created_at), null if none or unknown. */
  oldestReadyAt: string | null;
  tasks: string[] | null;
  /** Consumers attached to the queue (RabbitMQ; absent where the broker has no such notion). */
  consumers?: number | null;
  /** Counts that hit the cap; absent when every count is exact. */
  capped?: Partial<Record<CountKey, CappedCount>>;
  /**
   * The next ready task (what a worker claims first) when potatoq cannot decode it: every
   * worker that claims it crashes, so the queue is stuck until it is removed. Null when the
   * head is fine or was not checked (too big, or the broker cannot peek).
   */
  blockedBy?: HeadBlock | null;
}

export interface HeadBlock {
  id: string;
  task: string;
  foreign: ForeignKind;
  reason: string;
}

export interface WorkerInfo {
  id: string;
  hostname: string | null;
  pid: string | null;
  queues: string[];
  concurrency: string | null;
  threads: string | null;
  running: string[];
  heartbeatAt: string;
  /** Seconds since the last heartbeat at read time. */
  ageSeconds: number;
  /** potatoq's own: stale once older than 3 × heartbeat interval (15 s). */
  status: 'alive' | 'stale' | 'dead';
  registered: string[] | null;
}

export interface BrokerOverview {
  id: string;
  name: string;
  kind: BrokerKind;
  /** e.g. SQLite version, server version; never credentials. */
  serverInfo: string | null;
  readOnly: boolean;
  capabilities: Capabilities;
  queues: QueueStats[];
  totals: { ready: number | null; scheduled: number | null; running: number | null; dead: number | null };
  /** Totals that are lower bounds because a count hit the cap. */
  totalsCapped?: Partial<Record<CountKey, CappedCount>>;
  workers: { alive: number; stale: number };
  /** Why a column is unknown ("—") on every queue of this broker, in the operator's words. */
  unknownWhy?: Partial<Record<CountKey | 'oldest', string>>;
  readAt: string;
}

export interface Page<T> {
  items: T[];
  /** Opaque keyset cursor for the next page, null at the end. */
  nextCursor: string | null;
  /** Set when a text search only looked at the newest N rows (say so next to the results). */
  searchedNewest?: number;
}

/** A short, inert preview of a payload for lists. */
export interface PayloadPreview {
  /** `large`: not decoded for the list (too big); the detail page decodes it. */
  kind: 'potatoq' | 'foreign' | 'large';
  foreign?: ForeignKind;
  text: string;
}

export interface TaskSummary {
  id: string;
  queue: string;
  task: string;
  state: TaskState;
  priority: string;
  runAt: string | null;
  createdAt: string | null;
  claimedAt: string | null;
  worker: string | null;
  pid: string | null;
  deliveries: string;
  preview: PayloadPreview;
  /** Keyset position, opaque. */
  seq: string;
}

export interface ResultRecordDto {
  id: string;
  status: string;
  /** Decoded result payload (13 keys in potatoq) */
  record: PValue | null;
  excType: string | null;
  excMessage: string | null;
  traceback: string | null;
  dateDone: string | null;
  expiresAt: string | null;
  worker: string | null;
  name: string | null;
  raw: string;
}

export interface TaskDetail extends TaskSummary {
  payload: DecodedPayload;
  raw: string;
  rawSize: number;
  rawTruncated: boolean;
  result: ResultRecordDto | null;
}

export interface DeadSummary {
  id: string;
  queue: string;
  task: string;
  /** Last line of the stripped reason, as `potatoq dead list` shows it. */
  summary: string;
  diedAt: string | null;
  preview: PayloadPreview;
}

export interface DeadDetail extends DeadSummary {
  reason: string | null;
  payload: DecodedPayload;
  raw: string;
  rawSize: number;
  rawTruncated: boolean;
  result: ResultRecordDto | null;
  /**
   * For a Celery protocol 2 letter on a broker that can convert it: the potatoq message the
   * conversion would send (`enqueued_at` is set again when it is sent), or why it can't.
   */
  celeryConversion?: { ok: true; task: string; id: string; queue: string; json: string } | { ok: false; error: string };
}

export interface DeadGroup {
  summary: string;
  count: number;
  tasks: string[];
  queues: string[];
  newestAt: string | null;
  oldestAt: string | null;
}

export interface ResultSummary {
  id: string;
  status: string;
  name: string | null;
  dateDone: string | null;
  expiresAt: string | null;
}

export type OutcomeCode = 'ok' | 'missing' | 'running' | 'conflict' | 'invalid' | 'error';

export interface ActionOutcome {
  id: string;
  outcome: OutcomeCode;
  message: string;
}

export interface ActionResult {
  action: 'replay' | 'discard' | 'revoke' | 'purge' | 'enqueue';
  brokerId: string;
  requested: number;
  succeeded: ActionOutcome[];
  failed: ActionOutcome[];
}

export interface PurgeResult {
  brokerId: string;
  queue: string;
  removed: number;
}

export interface EnqueueResult {
  brokerId: string;
  id: string;
  queue: string;
  task: string;
  state: 'ready' | 'scheduled';
  /** The exact JSON written to the broker. */
  payload: string;
}

export interface HealthEntry {
  id: string;
  name: string;
  kind: BrokerKind;
  ok: boolean;
  error: { code: string; message: string } | null;
}
