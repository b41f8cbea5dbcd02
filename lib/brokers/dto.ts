// Output DTOs: what adapters return and the API and the UI read. Plain JSON-safe interfaces
// (ids and big numbers as strings, timestamps as ISO strings). Client-safe: no server imports.
// Re-exported by schema.ts, which keeps the zod input schemas.
import type { Conversion, MessageView, PayloadPreview } from './message-view';
import type { BrokerKind, BrokerModel, Capabilities, TaskState } from './model';
import type { WorkflowHealth } from './workflow-schema';
import type { TypedValue } from './typed-value';

export * from './model';
export type * from './message-view';
export type { TypedValue, ValueNote } from './typed-value';
export * from './diagnosis';

/** A count for a declared state key, or `dead` for the dead letters; null when unknown (a key
 *  the adapter did not fill included). */
export function countOf(q: Counted, key: string): number | null {
  return key === DEAD ? q.dead : (q.counts[key] ?? null);
}

/** The key of the dead letters: a tab of their own, never a declared state (`StateDecl.key`). */
export const DEAD = 'dead';

/** What is counted per queue and in a broker's totals: one count per declared state, keyed by
 *  the state's key (`model.states`), and the dead letters. */
export interface Counted {
  /** One entry per declared state; null when the system cannot count it. */
  counts: Record<string, number | null>;
  dead: number | null;
}

/** A count the adapter did not finish (it stopped at a cap): the matching count field then
 *  holds `atLeast`, a lower bound (0 included: "at least 0" is not "none"); `estimate` is the
 *  store's estimate (null when unknown); `why` says why the count stopped, in the operator's
 *  words. Shown as "10,000+ (≈ 1.2M)" with `why` as its title; exported with a capped marker. */
export interface CappedCount {
  atLeast: number;
  estimate: number | null;
  why?: string;
}

export interface QueueStats extends Counted {
  name: string;
  /** ISO time the oldest task a worker may claim now (the first declared state) was enqueued,
   *  null if none or unknown. */
  oldestReadyAt: string | null;
  tasks: string[] | null;
  /** The system holds this queue's work back from its workers (QueueFlow's pause); absent
   *  where the system has no pause. */
  paused?: boolean;
  /** Consumers attached to the queue (RabbitMQ; absent where the broker has no such notion). */
  consumers?: number | null;
  /** Counts that hit the cap, keyed like `counts` (and `dead`); absent when every count is exact. */
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
  /** The task its message names; null when it names none the console can read. */
  task: string | null;
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
  /** The queues' counts summed (`sumTotals`), keyed like theirs. */
  totals: Counted;
  /** Totals that are lower bounds because a count hit the cap. */
  totalsCapped?: Partial<Record<string, CappedCount>>;
  /** Workers by heartbeat; null where the system keeps no worker registry (then
   *  `capabilities.workers.why` says so): never 0 for "not tracked". */
  workers: { alive: number; stale: number } | null;
  /** What the operator should know about this broker's setup, in their words (a Redis that
   *  may evict tasks, ...); shown on its card. Absent when there is nothing to say. */
  warnings?: string[];
  /** Why a column is unknown ("—") on every queue of this broker, in the operator's words. */
  unknownWhy?: Partial<Record<string, string>>;
  /** Failed workflow runs and the newest with their cause, where capability `workflows` is on. */
  workflows?: WorkflowHealth;
  readAt: string;
}

export interface Page<T> {
  items: T[];
  /** Opaque keyset cursor for the next page, null at the end. */
  nextCursor: string | null;
  /** Set when a text search only looked at the newest N rows (say so next to the results). */
  searchedNewest?: number;
  /** Set when the list covers only part of what it lists for another reason, in the operator's
   *  words: what was read, why, and what reaches the rest (shown next to the results). */
  window?: string;
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
  /** Times of the system's own beyond these three (`pausedAt`, `leaseUntil`, ...), keyed as its
   *  states' `time.field` names them; absent when it has none. */
  times?: Record<string, string | null>;
  worker: string | null;
  pid: string | null;
  deliveries: string;
  preview: PayloadPreview;
  /** Keyset position, opaque. */
  seq: string;
}

const COMMON_TIMES = ['createdAt', 'runAt', 'claimedAt'] as const;

/** A task's time by the name a state's `time.field` gives: one of the common three, else one of
 *  the system's own `times`; null when it has none. */
export function timeOf(t: Pick<TaskSummary, (typeof COMMON_TIMES)[number] | 'times'>, field: string): string | null {
  if ((COMMON_TIMES as readonly string[]).includes(field)) return t[field as (typeof COMMON_TIMES)[number]];
  return t.times?.[field] ?? null;
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

/** Another task this one is linked to in its system (a fan-out's parent and its sub-jobs), for
 *  the detail page's links: `rel` says what it is to this one, in the system's words. */
export interface RelatedTask {
  id: string;
  rel: string;
}

export interface TaskDetail extends TaskSummary {
  /** The tasks it is linked to (at most a page of them; `relatedMore`: there are more than
   *  listed); absent where the system links none. */
  related?: RelatedTask[];
  relatedMore?: boolean;
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
  /** The system's own code for why it died, where it records one beside the error text
   *  (QueueFlow: `max_attempts_exceeded`, `non_retryable`, `handler_not_found`). */
  cause?: string | null;
  /** Set where a replayed letter stays (QueueFlow keeps it, marked): when, and the task the
   *  replay made (null when the system does not say). Absent where a replay removes the letter. */
  replayed?: { at: string | null; taskId: string | null } | null;
  /** Actions the system will refuse for this item although they are on for the broker, each
   *  with why (QueueFlow replays a letter once): the UI disables them with that reason, and the
   *  adapter refuses them in the same words. Absent when none. `replayEdited` only (Celery: a
   *  letter whose message is in its dead-letter queue replays as it is, never edited). */
  unavailable?: { replay?: string; replayEdited?: string };
}

export interface DeadDetail extends DeadSummary {
  /** As `TaskDetail.related`. */
  related?: RelatedTask[];
  relatedMore?: boolean;
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

/** Dead letters with the same error fingerprint (lib/triage/fingerprint.ts): exception type,
 *  message with what varies per task normalised, and the innermost frame of the project's code. */
export interface DeadGroup {
  /** The group's key (`fp-` + 16 hex): the dead list's and bulk jobs' `group` filter. */
  fingerprint: string;
  /** `Type: message` with `<n>`, `<uuid>`, `<hex>`, `<str>`, `<path>`, `<time>`, ... placeholders. */
  pattern: string;
  excType: string | null;
  /** Innermost frame of the project's own code (`shop/billing.py in charge`), null when none. */
  frame: string | null;
  /** The newest letter of the group, with its real one-line reason. */
  example: { id: string; summary: string };
  count: number;
  tasks: string[];
  queues: string[];
  newestAt: string | null;
  oldestAt: string | null;
}

/** What `deadGroups` grouped: every dead letter (of the queue asked), or a bounded part of them. */
export interface DeadGroupScope {
  /** Letters grouped: the sum of the groups' counts. */
  grouped: number;
  /** Every dead letter (of the queue asked) is in a group. False when the read was bounded and
   *  letters were left out (older than a window, beyond one read of a queue, ...). */
  complete: boolean;
  /** Set exactly when not complete: what was grouped and what was left out, in the operator's
   *  words (the adapter's own, e.g. "Grouped the newest 10,000 of 12,345 dead letters ..."). */
  note?: string;
}

/** The answer of `deadGroups`: the groups, largest first, and what they cover. */
export interface DeadGroups {
  groups: DeadGroup[];
  scope: DeadGroupScope;
}

/** Dead letters per time bucket (trend charts): bucket i is [fromMs + i·bucketMs, + bucketMs). */
export interface DeadHistogramQuery {
  fromMs: number;
  bucketMs: number;
  buckets: number;
  queue?: string;
  /** A dead-letter group's fingerprint (`DeadGroup.fingerprint`). */
  group?: string;
}

export interface DeadHistogram {
  /** `buckets` counts, oldest first. */
  counts: number[];
  /** Matching letters without a died time (in no bucket). */
  undated: number;
  /** Set when only N letters were looked at (the newest, where the store keeps them by died time;
   *  Celery's result records have no such order); null when all were. */
  scannedNewest: number | null;
}

export interface ResultSummary {
  id: string;
  status: string;
  name: string | null;
  dateDone: string | null;
  expiresAt: string | null;
}

/** `already`: it was done before (QueueFlow replays a letter once: "already replayed as job
 *  X"); nothing changed now, and doing it again would not change anything either. */
export type OutcomeCode = 'ok' | 'missing' | 'running' | 'conflict' | 'invalid' | 'already' | 'error';

export interface ActionOutcome {
  id: string;
  outcome: OutcomeCode;
  message: string;
  /** The task this outcome is about when it is not `id`: the job a replay created where the
   *  system gives replays a new id (QueueFlow), also for `already` (the earlier replay's job). */
  taskId?: string;
  /** The action refused this id so as not to run a task twice, and the same action with
   *  `force` may act on it once the operator has checked (a move over an earlier interrupted
   *  move of the letter: lib/brokers/move-one.ts). */
  forcible?: boolean;
}

export interface ActionResult {
  action: 'replay' | 'discard' | 'revoke' | 'purge' | 'enqueue' | 'move';
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

/** A queue paused or resumed (`pause`), with the counts the system answered (null: unknown). */
export interface QueuePauseResult {
  brokerId: string;
  queue: string;
  paused: boolean;
  pending: number | null;
  running: number | null;
}

export interface EnqueueResult {
  brokerId: string;
  id: string;
  queue: string;
  task: string;
  /** The declared state the task is in now (its tab): the first state, or the one for later
   *  work where the enqueue scheduled it (potatoq: `ready`/`scheduled`; QueueFlow: `pending`/`scheduled`). */
  state: string;
  /** The exact JSON written to the broker. */
  payload: string;
  /** Set when nothing was written because the system already had the task (QueueFlow: an
   *  idempotency key it has seen returns its earlier job): outcome `already`, naming `id`.
   *  Absent when the task was created. */
  outcome?: ActionOutcome;
  /** Request headers the write sends besides the payload (QueueFlow's `Idempotency-Key`),
   *  shown with the preview; absent when none. */
  headers?: Array<{ name: string; value: string }>;
}

/** What an enqueue would write, built by the adapter without writing anything (the form's live
 *  preview); the id and times of the real write differ. */
export interface EnqueuePreview extends EnqueueResult {
  preview: true;
  /** The system's own command that enqueues the same task, and the fields it cannot express;
   *  null when the system has no such command. */
  command: { line: string; missing: string[] } | null;
}

export interface HealthEntry {
  id: string;
  name: string;
  kind: BrokerKind;
  ok: boolean;
  error: { code: string; message: string } | null;
}

/** One place an id was found in a broker (find by id). No arguments: names, states and times only. */
export interface FoundItem {
  /** Where: a task in one of the broker's declared states, a dead letter, or a stored result. */
  kind: 'task' | 'dead' | 'result';
  /** The task's declared state key, `dead`, or the result's status (`SUCCESS`, `REVOKED`, ...). */
  state: string;
  task: string | null;
  queue: string | null;
  /** When it got there: enqueued, died, or done. */
  at: string | null;
}

/** An id looked up in one broker: what was found, and the lookups that could not answer. */
export interface BrokerFind {
  brokerId: string;
  name: string;
  items: FoundItem[];
  /** e.g. `{ what: 'dead letters', code: 'Unsupported', message: 'RabbitMQ 3.10: …' }`. */
  notSearched: Array<{ what: string; code: string; message: string }>;
}
