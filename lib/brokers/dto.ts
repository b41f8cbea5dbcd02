// Output DTOs: what adapters return and the API and the UI read. Plain JSON-safe interfaces
// (ids and big numbers as strings, timestamps as ISO strings). Client-safe: no server imports.
// Re-exported by schema.ts, which keeps the zod input schemas.
import type { TypedValue, ValueNote } from './typed-value';

export type { TypedValue, ValueNote } from './typed-value';

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

/** A state of waiting or running work, one of the adapter's declared `model.states` keys. */
export type TaskState = string;

/** The count columns potatoq's stores fill in `QueueStats`; other systems' states go in `counts`. */
export type CountKey = 'ready' | 'scheduled' | 'running' | 'dead';

/** One state an adapter lists: a tab on the queue page and a column of the overview. */
export interface StateDecl {
  /** In URLs (`?state=`), list queries and counts. */
  key: string;
  label: string;
  /** The capability that says whether this state's tasks can be listed here. */
  list: Capability;
  /** The time the list shows for this state, and its column header ("Enqueued", "Runs", ...). */
  time: { field: 'createdAt' | 'runAt' | 'claimedAt'; label: string };
  /** A worker owns tasks in this state: shown with their worker, never revoked or changed. */
  owned: boolean;
}

/** What one action does on this system, in one sentence for the confirmation dialog. */
export interface ActionDecl {
  does: string;
  /** The system's own command that does the same, for copy-paste: `{ids}` / `{queue}` are
   *  filled in shell-quoted (`potatoq dead retry {ids}`). Absent when it has none. */
  cli?: string;
}

/** The purge dialog's words: what goes (`what`, counted from `counts`), what stays. */
export interface PurgeDecl extends ActionDecl {
  what: string;
  /** The states whose counts the dialog shows, e.g. ready and scheduled. */
  counts: string[];
  stays: string;
}

/**
 * What an adapter declares about its system, constant for its life: the states it shows (in
 * tab and column order; dead letters are always a tab of their own when `browseDead` is on),
 * and each action's effect in words. Capabilities (on/off with a reason) stay per call.
 */
export interface BrokerModel {
  system: SystemKind;
  states: StateDecl[];
  actions: {
    /** `bulkRate`: a bulk replay is paced at this many per second unless changed (null: not paced). */
    replay: ActionDecl & { bulkRate: number | null };
    discard: ActionDecl;
    revoke: ActionDecl & { bulk: string };
    purge: PurgeDecl;
    enqueue: ActionDecl;
    /** Present where the adapter can turn another system's message into one of its own;
     *  `what` names such a letter ("Celery letter"). */
    convert?: ActionDecl & { what: string };
  };
}

/** A queue's count for a declared state: the fixed columns, then `counts`; null when unknown. */
export function countOf(q: Pick<QueueStats, CountKey | 'counts'>, key: string): number | null {
  if (key === 'ready' || key === 'scheduled' || key === 'running' || key === 'dead') return q[key];
  return q.counts?.[key] ?? null;
}

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
  /** Counts of declared states beyond potatoq's ready/scheduled/running (other systems). */
  counts?: Record<string, number | null>;
  /** ISO time the oldest ready task was enqueued (created_at), null if none or unknown. */
  oldestReadyAt: string | null;
  tasks: string[] | null;
  /** Consumers attached to the queue (RabbitMQ; absent where the broker has no such notion). */
  consumers?: number | null;
  /** Counts that hit the cap; absent when every count is exact. */
  capped?: Partial<Record<string, CappedCount>>;
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
  /** What kind of message it is (a code of the system's codec, e.g. `celery-v2`). */
  foreign: string;
  /** The system that cannot decode it ("potatoq"), and its own words why. */
  system: string;
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
  /** The adapter's declared model (added by the service). */
  model?: BrokerModel;
  /** e.g. SQLite version, server version; never credentials. */
  serverInfo: string | null;
  readOnly: boolean;
  capabilities: Capabilities;
  queues: QueueStats[];
  totals: { ready: number | null; scheduled: number | null; running: number | null; dead: number | null; counts?: Record<string, number | null> };
  /** Totals that are lower bounds because a count hit the cap. */
  totalsCapped?: Partial<Record<string, CappedCount>>;
  workers: { alive: number; stale: number };
  /** Why a column is unknown ("—") on every queue of this broker, in the operator's words. */
  unknownWhy?: Partial<Record<string, string>>;
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
  /** `native`: a message of the broker's own system; `foreign`: one its workers cannot run;
   *  `large`: not decoded for the list (too big); the detail page decodes it. */
  kind: 'native' | 'foreign' | 'large';
  /** The foreign message's kind (a code of the system's codec, e.g. `celery-v2`). */
  foreign?: string;
  text: string;
}

/** Why the broker's workers cannot run a message, in the system's words. */
export interface ForeignInfo {
  /** The codec's code for what it is (`celery-v2`, `invalid-json`, ...). */
  code: string;
  /** "Not a potatoq message: Celery protocol 2 message". */
  title: string;
  /** Who says so ("potatoq") and its exact text. */
  reasonBy: string;
  reason: string;
  /** What the operator should do about it. */
  advice: string;
  /** Claiming it crashes the worker that takes it (potatoq on SQL brokers). */
  crashesWorkers: boolean;
}

/** A header or envelope field of the message, read-only: text, or a typed value. */
export interface HeaderRow {
  name: string;
  text?: string;
  value?: TypedValue;
  /** It repeats the arguments (hidden with them under argument redaction). */
  carriesArgs?: boolean;
}

/**
 * One message or job as the console shows it, whatever the system: its task, id, queue and
 * arguments as typed values, its other fields and headers, and flags with reasons. Built by
 * each system's codec bridge (lib/brokers/<system>/).
 */
export interface MessageView {
  /** The format recognised (`potatoq`, `celery`, ...); null when none was. */
  format: string | null;
  task: string | null;
  id: string | null;
  queue: string | null;
  /** Positional and keyword arguments; null when the message carries none we could read. */
  args: TypedValue | null;
  kwargs: TypedValue | null;
  /** The message's other fields in wire order; `ignored`: why the system drops that field. */
  fields: Array<{ name: string; value: TypedValue; ignored?: string; carriesArgs?: boolean }>;
  /** Headers or envelope of a foreign message (Celery's task, id, eta, ...); `headersTitle` names them. */
  headers: HeaderRow[];
  headersTitle?: string;
  /** Anomalies in the values (a tag the system does not know, ...), each once. */
  flags: ValueNote[];
  /** Set when the broker's workers cannot run this message. */
  foreign: ForeignInfo | null;
  /** A foreign body decoded as plain data, when it is not a message at all. */
  value: TypedValue | null;
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
  /** Decoded result record (13 keys in potatoq) */
  record: TypedValue | null;
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
  payload: MessageView;
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
  payload: MessageView;
  raw: string;
  rawSize: number;
  rawTruncated: boolean;
  result: ResultRecordDto | null;
  /**
   * For a letter of another system on a broker that can convert it (potatoq on RabbitMQ: a
   * Celery protocol 2 message): the message the conversion would send, or why it can't.
   * `note` says what is set again when it is sent.
   */
  conversion?: Conversion;
}

export type Conversion =
  | { ok: true; from: string; to: string; task: string; id: string; queue: string; json: string; note: string }
  | { ok: false; from: string; to: string; error: string };

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
