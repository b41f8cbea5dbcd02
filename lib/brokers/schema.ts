// DTOs shared by adapters, the HTTP API and the client. Inputs are zod schemas; outputs are
// plain JSON-safe interfaces (ids and big numbers as strings, timestamps as ISO strings).
// Client-safe: no server imports.
import { z } from 'zod';
import type { DecodedPayload, ForeignKind, PValue } from '@/lib/potatoq/types';

export type BrokerKind = 'sqlite' | 'postgres' | 'rabbitmq' | 'redis';

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

export type TaskState = 'ready' | 'scheduled' | 'running';
export const ZTaskState = z.enum(['ready', 'scheduled', 'running']);

const ZLimit = z.coerce.number().int().min(1).max(500).default(50);
const ZText = z.string().trim().max(500).optional().transform((v) => (v ? v : undefined));

export const ZTaskListQuery = z.object({
  state: ZTaskState.default('ready'),
  queue: ZText,
  task: ZText,
  id: ZText,
  q: ZText,
  cursor: z.string().max(2000).optional(),
  limit: ZLimit,
});
export type TaskListQuery = z.infer<typeof ZTaskListQuery>;

export const ZDeadListQuery = z.object({
  queue: ZText,
  task: ZText,
  id: ZText,
  q: ZText,
  /** Where `q` looks: the reason and the message (default), or the reason only (what argument
   *  redaction allows: a search in arguments would tell a viewer what they hold). */
  qIn: z.enum(['all', 'reason']).optional(),
  /** Exact match on the reason's summary line (the dead-letter groups). */
  group: z.string().max(2000).optional(),
  cursor: z.string().max(2000).optional(),
  limit: ZLimit,
});
export type DeadListQuery = z.infer<typeof ZDeadListQuery>;

export const ZResultListQuery = z.object({
  status: ZText,
  cursor: z.string().max(2000).optional(),
  limit: ZLimit,
});
export type ResultListQuery = z.infer<typeof ZResultListQuery>;

/** A task id as potatoq stores it: any non-empty text; we bound the size. */
export const ZTaskId = z.string().min(1, 'empty id').max(512, 'id longer than 512 characters');
export const ZIds = z.object({ ids: z.array(ZTaskId).min(1, 'no ids given').max(10_000, 'at most 10,000 ids per call') });
export type Ids = z.infer<typeof ZIds>;

/** Queue names as potatoq accepts them on every broker (RabbitMQ forbids `.`, `#`, `*`). */
export const ZQueueName = z
  .string()
  .trim()
  .min(1, 'queue name is required')
  .max(200, 'queue name longer than 200 characters');

export const ZEnqueueRequest = z
  .object({
    task: z.string().trim().min(1, 'task name is required').max(500, 'task name longer than 500 characters'),
    queue: ZQueueName.default('default'),
    /** JSON text of a list (so tagged values and big integers survive exactly). */
    args: z.string().max(1_000_000).default('[]'),
    /** JSON text of an object. */
    kwargs: z.string().max(1_000_000).default('{}'),
    priority: z.coerce.number().int('priority must be a whole number').min(-32768).max(32767).default(0),
    /** Seconds from now; mutually exclusive with eta. */
    countdown: z.coerce.number().min(0, 'countdown cannot be negative').max(10 * 365 * 86400).optional(),
    /** ISO 8601 date-time with offset, or Unix seconds. */
    eta: z.string().trim().max(100).optional().transform((v) => (v ? v : undefined)),
    /** ISO 8601 date-time, or seconds from now when a plain number. */
    expires: z.string().trim().max(100).optional().transform((v) => (v ? v : undefined)),
    /** JSON text of an object. */
    headers: z.string().max(100_000).default('{}'),
  })
  .refine((r) => !(r.countdown !== undefined && r.eta !== undefined), {
    message: 'give either a countdown or an eta, not both',
    path: ['eta'],
  });
export type EnqueueRequest = z.infer<typeof ZEnqueueRequest>;

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
