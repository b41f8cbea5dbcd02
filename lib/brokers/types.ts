import 'server-only';
import type { z } from 'zod';
import type {
  ActionOutcome,
  ActionResult,
  BrokerKind,
  BrokerModel,
  BrokerOverview,
  Capabilities,
  SystemKind,
  DeadDetail,
  Diagnosis,
  DeadGroups,
  DeadGroupsQuery,
  DeadHistogram,
  DeadHistogramQuery,
  DeadFilter,
  DeadListQuery,
  DeadSummary,
  EnqueueRequest,
  EnqueuePreview,
  EnqueueResult,
  Page,
  QueuePauseResult,
  PurgeResult,
  TaskFate,
  ResultListQuery,
  ResultRecordDto,
  ResultSummary,
  TaskDetail,
  TaskListQuery,
  TaskSummary,
  WorkerInfo,
} from './schema';
import type { PyVal } from '@/lib/pyvalues/pyval';
import type { AdapterContext } from './adapter-context';
import type { Capability } from './model';
import type { EditPreview, EditReplayResult, ReplayEditInput } from './schema-edit';
import type { Schedule, ScheduleAction, ScheduleInput, ScheduleList, ScheduleOutcome, SchedulePreview } from './schedule';
import type { WorkflowDetail, WorkflowHealth, WorkflowListQuery, WorkflowRunPage } from './workflow-schema';
import type { FamilyQuery, TaskFamily } from './family/schema';

/**
 * The one contract every broker implements. Created by a factory (`createSqliteAdapter`),
 * never subclassed. Adapters map broker rows/messages to DTOs and perform writes with exactly
 * potatoq's semantics; they never modify running work (SQL `state = 2`, Redis `st = active`).
 *
 * Errors: adapters throw `ConsoleError` (`NotFound`, `Unsupported`, `BrokerUnavailable`,
 * `NotMigrated`, ...). Any other error is treated by the service as `BrokerUnavailable`.
 */
export interface BrokerAdapter {
  readonly id: string;
  readonly name: string;
  readonly kind: BrokerKind;
  /** Its states (tabs and overview columns follow them) and what each action does there. */
  readonly model: BrokerModel;

  /** Probes the broker (version, permissions) and reports what it can do and why not. */
  capabilities(): Promise<Capabilities>;
  /** Per-queue counts, totals and worker liveness. A count the broker cannot give is null. */
  overview(): Promise<BrokerOverview>;

  /** Keyset-paginated list in claim order (ready: priority DESC, seq; scheduled: run_at, seq;
   *  running: claimed_at, seq). */
  listTasks(q: TaskListQuery): Promise<Page<TaskSummary>>;
  /** A waiting or running task by id; null when it is not in the jobs store. */
  getTask(id: string): Promise<TaskDetail | null>;

  /** Dead letters newest first (died_at DESC, id). */
  listDead(q: DeadListQuery): Promise<Page<DeadSummary>>;
  /** Dead letters grouped by error fingerprint, largest group first, and the scope: how many
   *  letters were grouped, whether that is all of them, and when not, the adapter's words for
   *  what was read and what was left out (a window of the newest, one read of a deep queue).
   *  With `since`/`until` (only where `deadRange` is on) only the letters that died in the range
   *  are grouped, the range pushed into the read where the system can (its window is then the
   *  newest of the range). */
  deadGroups(q: DeadGroupsQuery): Promise<DeadGroups>;
  getDead(id: string): Promise<DeadDetail | null>;
  /** Whether a dead letter died because no worker of this system had a handler for its task
   *  (the migration view's "no handler" column), read from what `listDead` gives. Absent where
   *  the system does not tell such letters apart; the view says so. */
  lacksHandler?(letter: DeadSummary): boolean;
  /**
   * Dead letters per time bucket by the died time the system itself keeps (trend charts), at a
   * bounded cost (an index range or at most the letters `deadGroups` would read). Optional:
   * absent where the system keeps no died time; throws `Unsupported` with the reason where this
   * broker can't answer (RabbitMQ 3.x can't browse its DLQs).
   */
  deadHistogram?(q: DeadHistogramQuery): Promise<DeadHistogram>;

  listWorkers(): Promise<WorkerInfo[]>;
  /** Stored results without potatoq's internal records (`potatoq-registered-*`, `group:*`). */
  listResults(q: ResultListQuery): Promise<Page<ResultSummary>>;
  /** A task's stored result record by id (finished, failed, revoked), null when none is stored.
   *  Throws `Unsupported` where results are off (`capabilities.results`). */
  getResult(id: string): Promise<ResultRecordDto | null>;
  /** Task names seen in the broker and in registered-task records, sorted. */
  taskNames(): Promise<string[]>;
  /** The queues each task name was seen in (its messages, waiting or dead, in the same bounded
   *  window as `taskNames`), most-seen first: where the task is routed, as far as the broker
   *  shows it. An enqueue without a queue goes to the first. Absent where the system's messages
   *  do not say; then only live workers' routes (`model.actions.enqueue.routes`) are known. */
  taskQueues?(): Promise<Record<string, string[]>>;

  /** Every dead letter's id matching `q` (the list's filter and order), at most `cap` of them,
   *  in one pass over the whole dead-letter store: the snapshot of an "all matching" bulk job
   *  where paging `listDead` would be bounded or cost a pass per page (RabbitMQ's DLQ browse
   *  holds `deadBrowseLimit` letters and re-reads them per page). Absent: the job pages `listDead`. */
  deadIds?(q: DeadFilter, cap: number): Promise<{ ids: string[]; capped: boolean }>;
  /** potatoq's `dead retry`, per id; never loses a letter (a live job with the id -> conflict). */
  replayDead(ids: string[]): Promise<ActionResult>;
  /** `replayDead` over many ids in one pass, paced, with progress and cancellation (the bulk
   *  runner hands it a whole snapshot), where a call per batch would cost more than one pass
   *  (RabbitMQ finds letters only by walking the DLQ). Absent: the runner calls `replayDead` per batch. */
  replayDeadPaced?(ids: string[], pace: ReplayPace): Promise<ActionResult>;
  /** Deletes dead letters (and nothing else). */
  discardDead(ids: string[]): Promise<ActionResult>;
  /** Removes dead letters that moved to another broker as this system's replay leaves them:
   *  the letter and, in the same step, the result record its replay forgets (potatoq's SQL and
   *  Redis stores: the FAILURE), so the id is not found here too. Absent: a move removes the
   *  letter with `discardDead` (the system's replay keeps the result, or it has none). Where
   *  the system cannot delete a letter (`model.calls.leaves` 'replay'), the letter is marked
   *  instead, in words naming `to`, the broker it went to. */
  removeMoved?(ids: string[], to?: { id: string; name: string }): Promise<ActionResult>;
  /** potatoq's `revoke`: removes waiting work, writes REVOKED; running ones are refused. */
  revoke(ids: string[]): Promise<ActionResult>;
  /** potatoq's `purge`: removes a queue's waiting (ready + scheduled) tasks only; RabbitMQ's `queue.purge` takes its ready messages (delayed ones wait in the delay queues). */
  purge(queue: string): Promise<PurgeResult>;
  /** potatoq's `call`/`delay`: writes one compact message. */
  enqueue(req: EnqueueRequest): Promise<EnqueueResult>;
  /** The message `enqueue` would write for the same request, validated the same way (bad input
   *  is InvalidInput naming the field), written nowhere. */
  previewEnqueue(req: EnqueueRequest): Promise<EnqueuePreview>;
  /** Rebuilds dead letters of another system as this system's tasks and replays them (potatoq
   *  on RabbitMQ: Celery protocol 2 messages, same id, task, args, kwargs); `model.actions.convert`
   *  says what it does. Absent where the broker can't hold such letters. */
  convert?(ids: string[]): Promise<ActionResult>;
  /** Stuck work named with its cause (lib/brokers/diagnosis.ts), from bounded reads: running
   *  tasks whose worker is gone, past their time limit, waiting work no worker consumes,
   *  scheduled work overdue by `overdueSeconds`, a head that crashes every worker. A check the
   *  system cannot run is in `unknown` with why. `revoke` is the service's decision (read-only
   *  included), for the words of what the console can do. Absent: every check is unknown. */
  diagnose?(q: { overdueSeconds: number; revoke: { on: boolean; why?: string } }): Promise<Diagnosis>;
  /** What the console needs from this broker's login that the overview cannot show, each
   *  checked without changing anything (the doctor: `potatoq-console doctor`, the admin page):
   *  a permission, a management API. Absent: the overview and capabilities say all there is. */
  checkAccess?(): Promise<AccessCheck[]>;

  /** The message a replay of letter `id` with `edit` would write, beside a plain replay's;
   *  nothing written. Bad edits are InvalidInput naming the field (`kwargs.at`). Present with
   *  `model.actions.replayEdited`. */
  previewReplayEdited?(id: string, edit: ReplayEditInput): Promise<EditPreview>;
  /** Replays letter `id` with `edit` (same guarantees as replayDead: never loses the letter). */
  replayEdited?(id: string, edit: ReplayEditInput): Promise<EditReplayResult>;
  /** Holds a queue's work back from its workers, or lets it go again; running work finishes.
   *  Absent (and capability `pause` off) where the system has no pause; `model.actions.pause` says what it does. */
  setQueuePaused?(queue: string, paused: boolean): Promise<QueuePauseResult>;

  /** Dead letter `id` as a call of `model.calls.model` (present with `model.calls.export` on):
   *  null when no such letter is here; InvalidInput with why when it can't be a call (no task
   *  name stored, callbacks the other system can't run). Nothing changes. */
  exportCall?(id: string): Promise<TaskCall | null>;
  /** Enqueues `call` under its own id (present with `model.calls.import` on). `already`: a task
   *  with this id is already here (waiting, running, dead or finished) and nothing was written;
   *  InvalidInput where a value can't be written in this system's format. */
  importCall?(call: TaskCall): Promise<{ outcome: 'ok' | 'already'; message: string }>;
  /** Creates `job` (present where `model.task.payload.shape` is 'value' and
   *  `model.calls.import` is on): a job of a named payload, converted from another call model
   *  through a call mapping (lib/brokers/mapping/). Under `job.key`, the system's idempotency
   *  key: the same key again returns the first job (`already`) and creates nothing, which is
   *  what makes a retried move safe here (`model.calls.keyed`). InvalidInput where the system
   *  refuses the job (nothing created). */
  importValue?(job: ValueJob): Promise<{ outcome: 'ok' | 'already'; message: string; taskId: string }>;
  /** Dead letter `id` as a job of a named payload (present where `model.task.payload.shape` is
   *  'value' and `model.calls.export` is on): the way back through a call mapping. Null when no
   *  such letter is here (or it was replayed already); nothing changes. */
  exportValue?(id: string): Promise<ValueLetter | null>;
  /** Waiting task `id` as a call (present with `model.calls.waiting` on), with `claim`: what
   *  `takeWaiting` needs to remove exactly this message (opaque, JSON text). Null when no such
   *  task waits here (a worker took it, or it never was). Nothing changes. */
  peekWaiting?(id: string): Promise<{ call: TaskCall; claim: string } | null>;
  /** Waiting job `id` of a named payload (present where `model.task.payload.shape` is 'value'
   *  and `model.calls.waiting` is on), as a letter the call mapping converts back, with `claim`
   *  as in `peekWaiting`. Null when no such job waits here; InvalidInput with why when it cannot
   *  move (scheduled for later). Nothing changes. */
  peekWaitingValue?(id: string): Promise<{ letter: ValueLetter; claim: string } | null>;
  /** Removes the waiting message `claim` names, atomically: in the step that claims it, so no
   *  worker can also get it. False when it was no longer waiting (a worker took it, another
   *  move did): nothing removed. */
  takeWaiting?(id: string, claim: string): Promise<boolean>;
  /** Whether a `takeWaiting` of `id` removed it here (a mark the take leaves in the same step):
   *  a move that stopped after its take then sends the held call; without it, the task gone
   *  means a worker took it. Nothing changes. */
  tookWaiting?(id: string): Promise<boolean>;
  /** Whether a task with this id is here (waiting, running, dead or finished), as `importCall`
   *  checks it: the words it would say with `already`, or null. Nothing changes. A move asks
   *  this after an earlier move of the id did not finish (lib/brokers/move-one.ts); without it
   *  such a move is left to the operator. */
  findCall?(id: string): Promise<string | null>;

  /** The system's schedules with their last firing and problems (present with
   *  `model.schedules` declared; lib/brokers/schedule-model.ts). Bounded reads. */
  listSchedules?(): Promise<ScheduleList>;
  /** One schedule by id; null when there is none (the typed confirmation reads its name). */
  getSchedule?(id: string): Promise<Schedule | null>;
  /** Pause, resume, delete or run one schedule now (each present where the model declares it).
   *  `key`: a run-now's idempotency key (the same key again returns the first firing's job).
   *  NotFound for an id the system does not have. */
  scheduleAction?(id: string, action: ScheduleAction, key?: string): Promise<ScheduleOutcome>;
  /** The exact calls a create (or, with `replaces`, an edit) would make; nothing sent. Bad input
   *  is InvalidInput keyed by field (`cron`, `timeZone`, `fields.payload`). */
  previewSchedule?(input: ScheduleInput, replaces?: string): Promise<SchedulePreview>;
  createSchedule?(input: ScheduleInput): Promise<ScheduleOutcome>;
  /** Changes schedule `id` as `model.schedules.actions.edit.how` says (in place, or replaced). */
  editSchedule?(id: string, input: ScheduleInput): Promise<ScheduleOutcome>;
  /** Workflow runs (a DAG of steps, each a task) and the system's retry of a failed run,
   *  present with capability `workflows` and `model.workflows`. */
  readonly workflows?: WorkflowsAdapter;
  /** Task `id`'s family (root, parent, children, group or chord, the work a failed member
   *  blocks), from any member, bounded by `q.limit`; null when no task with this id is here
   *  and none names it. Present with capability `family` on (lib/brokers/family/). */
  family?(id: string, q: FamilyQuery): Promise<TaskFamily | null>;
  /** Where each replayed task is now (a campaign's follow-up, lib/campaigns/): one fate per id in
   *  the ids' order, at most FATE_BATCH ids, at most READS_PER_ID reads each (lib/brokers/kit/fate.ts
   *  says how a system declares where to look). Present with capability `fate` on; what the
   *  system cannot tell is `unknown` with why. */
  fate?(ids: string[]): Promise<TaskFate[]>;
  /** Deletes workflow `id` with its whole subtree, under the system's own guard (present with
   *  `model.actions.deleteFamily`); one outcome for the id. */
  deleteFamily?(id: string): Promise<ActionResult>;

  close(): Promise<void>;
}

/** A system's workflow runs (lib/brokers/workflow-schema.ts has the DTOs). */
export interface WorkflowsAdapter {
  /** One status's runs (every run without one), newest first, by the system's cursor. */
  list(q: WorkflowListQuery): Promise<WorkflowRunPage>;
  /** A run with its steps laid out; null when no such run is visible here. A malformed id is
   *  InvalidInput naming `id`, before the system is asked. */
  get(id: string): Promise<WorkflowDetail | null>;
  /** The system's own retry of a failed run (nothing else is changed); Conflict in the
   *  system's words where it refuses (a running or completed run). */
  retry(id: string): Promise<void>;
  /** How many runs are failed now and the newest of them with their cause. */
  health(): Promise<WorkflowHealth>;
}

/**
 * One task call in the model systems like potatoq and Celery share (`model.calls.model`):
 * what a dead letter carries when it moves to another broker. Values are Python values
 * (`PyVal`: each system's codec writes them in its own format, types kept).
 */
export interface TaskCall {
  id: string;
  task: string;
  queue: string;
  /** A list. */
  args: PyVal;
  /** A dict. */
  kwargs: PyVal;
  /** The letter's priority where it has one; null: the target's default. */
  priority: number | null;
  /** Epoch ms; null: no expiry. The letter's eta is not carried (a move runs it now, as a replay). */
  expiresMs: number | null;
  /** Epoch ms the task was to run at (its eta or countdown), where the letter says; a move
   *  between brokers of one call model runs it now, as a replay; a mapped job keeps one ahead. */
  etaMs?: number | null;
  /** The producer asked for no stored result (potatoq's `ignore_result` message field, Celery's
   *  `ignore_result` header: the worker decides by it alone, whatever its task says); null: the
   *  letter does not say, and the target's default applies (potatoq stores the result, Celery
   *  follows its task's `ignore_result`). */
  ignoreResult: boolean | null;
  /** The workflow the task belongs to (`root_id`: its first task, `parent_id`: the task that
   *  sent it), kept so traces and logs still link it; null where the letter has none. */
  rootId: string | null;
  parentId: string | null;
}

/** A job of a named-payload call model, as a move through a call mapping sends it. */
export interface ValueJob {
  /** The source letter's id, and the idempotency key derived from it. */
  sourceId: string;
  key: string;
  task: string;
  queue: string;
  /** JSON only (the mapping encoded or refused every value JSON cannot hold). */
  payload: Record<string, unknown>;
  /** Null: the target's default. */
  priority: number | null;
  /** ISO time to run at; null: now. */
  runAt: string | null;
  /** The operator's retry settings; each absent: the target's default. */
  retry: { maxRetries?: number; backoff?: 'fixed' | 'linear' | 'exponential'; delaySecs?: number };
}

/** A dead letter of a named-payload call model, as a move back through a call mapping reads it. */
export interface ValueLetter {
  /** The letter's id here (the move's id). */
  id: string;
  /** The id of the job that died: the moved task's id on the target derives from it. */
  jobId: string;
  task: string;
  queue: string;
  payload: unknown;
  /** Null: the target's default. */
  priority: number | null;
}

/** How a long replay is steered while it runs (`replayDeadPaced`). */
export interface ReplayPace {
  /** At most this many letters per second; read again before each letter. */
  rate?: number;
  signal?: AbortSignal;
  /** Awaited before each letter: resolves later to pause. */
  gate?: () => Promise<void>;
  /** Called after each id is settled or refused. */
  onProgress?: (done: number, total: number, last: ActionOutcome) => void;
  /** Only this queue's letters (faster: no discovery). */
  queue?: string;
}

/** What configuration says about one broker (never sent to the browser as is). */
export interface BrokerConfig {
  id: string;
  name: string;
  /** The queue system (`"kind"` in the entry; potatoq when absent). */
  kind: SystemKind;
  url: string;
  /** Decided in the service (actions refused, capabilities off); adapters may also open
   *  read-only connections for it, never more. */
  readOnly: boolean;
  /** Its environment ("production"): its own `environment`, else the console's; absent when none is named. */
  environment?: string;
  /** The entry's other keys, checked at boot by the system module's option schema. */
  options: Record<string, unknown>;
}

/** What a system's adapter factory receives: the entry without `kind` (the factory knows its own). */
export type StoreConfig = Omit<BrokerConfig, 'kind'>;

/** Creates a broker's adapter; `ctx` lends it the console's services it may use (leases, audit). */
export type AdapterFactory = (config: StoreConfig, ctx: AdapterContext) => BrokerAdapter;

/**
 * One queue system in the registry's table (lib/brokers/systems.ts). Owns the URL schemes it
 * accepts and a zod schema of its options, both checked at boot (a bad or unknown option stops
 * startup naming the field), and creates adapters. `create: null`: configuration is accepted
 * and the broker card says "not supported yet".
 */
export interface SystemModule {
  readonly kind: SystemKind;
  /** e.g. "potatoq", "Simple Durable Jobs". */
  readonly label: string;
  /** Why this system cannot use `url` (shown as `...url: <why>`), or null when it can. */
  checkUrl(url: string): string | null;
  /** The store the URL picks (`sqlite`, `postgres`, ...), for display; throws on a bad scheme. */
  storeOf(url: string): BrokerKind;
  /** The store's name as an operator reads it beside the system ("Redis", "PostgreSQL"): the
   *  overview card, the header and the broker page say "Celery · Redis". Throws on a bad scheme. */
  storeLabel(url: string): string;
  /** The options schema for this URL's store (strict: unknown keys are refused). */
  optionsFor(url: string): z.ZodType<Record<string, unknown>>;
  /** Null while the console cannot show this system (or this store of it) yet. The factory
   *  gets the console's services it may use (leases, audit) in its context, never by import. */
  factoryFor(url: string): AdapterFactory | null;
}

/**
 * One check of the doctor, in the system's words: `check` names what was checked ("AMQP write
 * permission"), `detail` what was found, `switchesOff` what a failed check turns off in the
 * console. `ok: null`: could not be told. `fatal`: the console cannot use the broker at all.
 */
export interface AccessCheck {
  check: string;
  ok: boolean | null;
  detail: string;
  switchesOff?: Capability[];
  fatal?: boolean;
}
