// What an adapter declares about its system (the contract's vocabulary): the systems, the
// capabilities and the write actions among them, the states it lists and what each action does.
// Client-safe: no server imports. Re-exported by dto.ts and schema.ts.

/** The queue systems a broker entry may name (`"kind"`); the registry says which are supported. */
export const SYSTEM_KINDS = ['potatoq', 'celery', 'sdj', 'queueflow'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];

/** The store a broker runs on, for display (`sqlite`, `postgres`, `rabbitmq`, `redis`, ...): the
 *  system module picks it from the URL. Nothing branches on it outside the registry. */
export type BrokerKind = string;

/** The closed set of things an adapter may be able to do besides listing its states (one
 *  `list:<state key>` capability per declared state: `listCapability`). */
export const CAPABILITIES = [
  'browseDead',
  'replay',
  'discard',
  'revoke',
  'purge',
  'enqueue',
  'results',
  'workers',
  'pause',
  'family',
] as const;
export type FixedCapability = (typeof CAPABILITIES)[number];
/** Whether the tasks of one declared state can be listed here: `list:` and the state's key. */
export type ListCapability = `list:${string}`;
export type Capability = FixedCapability | ListCapability;
/** `code`, when off: the error the server answers for it (`Forbidden`: not for this user;
 *  `ReadOnly`: configured read-only); absent means the system cannot (`Unsupported`). */
export interface Cap {
  on: boolean;
  why?: string;
  code?: 'Forbidden' | 'ReadOnly';
}
/** The fixed capabilities, and `list:<key>` for each declared state (absent: not listed). */
export type Capabilities = Record<FixedCapability, Cap> & { [k: ListCapability]: Cap };

/** The capability that says whether a declared state's tasks can be listed. */
export const listCapability = (state: string): ListCapability => `list:${state}`;

/** Whether a declared state's tasks can be listed, and why not: off (with why) when the
 *  adapter does not say. */
export const listingOf = (caps: Capabilities, state: string): Cap =>
  caps[listCapability(state)] ?? { on: false, why: `the adapter does not list its "${state}" tasks` };

/** One listing capability per declared state, all the same (`{on: true}`, or off with why). */
export const listing = (states: Pick<StateDecl, 'key'>[], cap: Cap): Record<ListCapability, Cap> =>
  Object.fromEntries(states.map((st) => [listCapability(st.key), cap]));

/** Every fixed capability on, and every declared state listed: where an adapter starts from. */
export const allCapabilities = (states: Pick<StateDecl, 'key'>[]): Capabilities => ({
  ...(Object.fromEntries(CAPABILITIES.map((k) => [k, { on: true }])) as Record<FixedCapability, Cap>),
  ...listing(states, { on: true }),
});

/** The capabilities that change a broker: what read-only takes away. The one list of them. */
export const WRITE_ACTIONS = ['replay', 'discard', 'revoke', 'purge', 'enqueue', 'pause'] as const satisfies readonly Capability[];
export type WriteAction = (typeof WRITE_ACTIONS)[number];

/** `caps` with every write turned off for `why` (read-only configuration, a standby, ...). */
export function withoutWrites(caps: Capabilities, why: string, code?: 'Forbidden' | 'ReadOnly'): Capabilities {
  const out = { ...caps };
  for (const k of WRITE_ACTIONS) out[k] = code ? { on: false, why, code } : { on: false, why };
  return out;
}

/** A state of waiting or running work, one of the adapter's declared `model.states` keys. */
export type TaskState = string;

/** One state an adapter lists: a tab on the queue page and a column of the overview. */
export interface StateDecl {
  /** In URLs (`?state=`), list queries, counts and its listing capability (`list:<key>`). */
  key: string;
  label: string;
  /** The task time that orders this state's list and heads its time column ("Enqueued",
   *  "Runs", ...): a key of the task's times (`timeOf`: `createdAt`, `runAt`, `claimedAt`, or
   *  one the adapter adds to `TaskSummary.times`, e.g. `pausedAt`). */
  time: { field: string; label: string };
  /** A worker owns tasks in this state: shown with their worker, never revoked or changed. */
  owned: boolean;
  /** The part this state plays in every queue system's life of a task, when it plays one:
   *  `waiting` (due work a worker takes next: where an enqueue without a time lands, what the
   *  overview's oldest waiting age measures), `scheduled` (work held until its time),
   *  `running` (claimed by a worker). At most one state per role; a state of the system's own
   *  (retrying, paused, waiting on children) plays none. Generic code and the shared test
   *  battery find a state by its role, never by its key. */
  role?: StateRole;
}

export const STATE_ROLES = ['waiting', 'scheduled', 'running'] as const;
export type StateRole = (typeof STATE_ROLES)[number];

/** The declared state that plays `role`, if one does. */
export const stateOfRole = (states: readonly StateDecl[], role: StateRole): StateDecl | undefined => states.find((s) => s.role === role);

/** The state a broker shows when none is asked for (a list query without `state`, the queue
 *  page without `?state=`, the depth a chart plots): the one that plays `waiting`, else the
 *  first declared. Undefined only for a model that declares no state. */
export const defaultState = (states: readonly StateDecl[]): StateDecl | undefined => stateOfRole(states, 'waiting') ?? states[0];

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
    replay: ActionDecl & {
      bulkRate: number | null;
      /** The replay is a new task with an id of its own and the letter stays, marked replayed
       *  (QueueFlow); absent: the letter's task goes back under its own id (potatoq). */
      newTask?: boolean;
    };
    discard: ActionDecl;
    revoke: ActionDecl & { bulk: string };
    purge: PurgeDecl;
    enqueue: EnqueueDecl;
    /** Present where the system can hold a queue's work back from its workers (QueueFlow's
     *  pause); `resume` says what resuming does. */
    pause?: ActionDecl & { resume: string };
    /** Present where the adapter replays a letter with edited arguments, kwargs, queue or
     *  priority (`replayEdited`); `sameId`: the task keeps the letter's id (else a new one). */
    replayEdited?: ActionDecl & {
      sameId: boolean;
      /** Why positional arguments can't be edited (the system has none: QueueFlow's payload is
       *  one JSON object, edited key by key); absent where they can. */
      noArgs?: string;
      /** The editor's name for the keyword arguments and for one of them (QueueFlow: its
       *  payload's keys); absent: "Keyword arguments", "keyword argument". */
      kwargs?: { label: string; entry: string };
      /** The typed kinds a value may be edited as, besides JSON's own (text, numbers, true/false,
       *  null, lists, objects): what the system's workers receive as such (QueueFlow: none, its
       *  payload is JSON). Absent: every kind the editor knows. */
      kinds?: TypedKind[];
    };
    /** Present where the system can delete a workflow with its whole subtree (the adapter's
     *  `deleteFamily`, gated by `discard`); `guard` says what the system refuses. */
    deleteFamily?: ActionDecl & { guard: string };
    /** Present where the adapter can turn another system's message into one of its own;
     *  `what` names such a letter ("Celery letter"). */
    convert?: ActionDecl & { what: string };
  };
  /** What the results page lists on this system (potatoq's and Celery's stored records,
   *  QueueFlow's finished jobs): `statuses` the filter takes (its hint), `all` what it shows
   *  without one. Absent: the page names no system's statuses. */
  results?: { does: string; statuses: string[]; all: string };
  /** How this system's workers are known, in the Workers page's words. Absent: neutral words. */
  workers?: WorkersDecl;
  /** Present where dead letters can move between this broker and brokers of another system
   *  that shares its call model (lib/brokers/move.ts pairs them). */
  calls?: CallsDecl;
}

/** How an operator learns about this system's workers, in its own words (never another system's). */
export interface WorkersDecl {
  /** How the console knows them, one sentence (the Workers page's subtitle): potatoq's heartbeats,
   *  Celery's broadcast inspect, or that the system keeps no worker registry. */
  known: string;
  /** What an empty list means here ("No worker heartbeats are stored."). */
  none: string;
  /** The system's own command that starts a worker, shown after `none`; absent where it has none. */
  start?: string;
  /** The header of the time column: what the age counts from ("Heartbeat", "Answered"). */
  seen: string;
}

/** A side of a cross-broker move this broker can or cannot take, in words. */
export type CallSide = { does: string } | { why: string };

/**
 * How this broker's work is shaped as a call (task name, args, kwargs, queue, eta: Celery's
 * call model), and whether a dead letter can leave it as such a call (`export`, then removed
 * here as a discard removes it) and a call can arrive (`import`, enqueued under the letter's
 * own id). A move is offered only between brokers of the same `model`.
 */
export interface CallsDecl {
  /** Brokers whose models are equal can move letters between them ("celery-compatible"). */
  model: string;
  /** What this broker reads as the call, or why its letters can't leave as calls. */
  export: CallSide;
  /** What this broker writes for a call, or why it can't take one. An import that is on
   *  keeps the letter's id and tells whether that id is already here (waiting, running, dead
   *  or finished): that check is what makes a retried move `already` instead of a second run. */
  import: CallSide;
  /** Call attributes a call cannot keep when this broker takes it, each with why: the outcome
   *  of a move of a call that has one says so (absent: it keeps them all, `TaskCall`). */
  drops?: { ignoreResult?: string };
}

/** The neutral kinds of an enqueue field; the form picks its input from the kind, the adapter's
 *  own zod schema decides what the value means. Values travel as the form's text (JSON values
 *  are accepted too; text keeps big integers exact). */
export type EnqueueFieldKind =
  /** One line of text. */
  | 'text'
  /** A whole number (text or number), within `min`/`max`. */
  | 'integer'
  /** A JSON list (JSON text or a list); `typed`: the form offers the system's typed values. */
  | 'json-list'
  /** A JSON object (JSON text or an object). */
  | 'json-object'
  /** An instant: ISO 8601 with an offset (the form converts the viewer's local time to UTC). */
  | 'datetime'
  /** Seconds (a number, fractions allowed), within `min`/`max`. */
  | 'duration';

/** One input of the enqueue form, as the adapter declares it. */
export interface EnqueueFieldDecl {
  /** The request's `fields` key, and the first segment of error paths (`kwargs.when`). */
  key: string;
  kind: EnqueueFieldKind;
  label: string;
  /** One sentence under the input (units, defaults, what the system does with it). */
  help?: string;
  required?: boolean;
  /** The form's initial text; absent: empty (the system's own default applies). */
  default?: string;
  placeholder?: string;
  /** Bounds of integer and duration fields. */
  min?: number;
  max?: number;
  /** JSON fields whose values may be typed (datetime, Decimal, ...): `EnqueueDecl.typed` says how. */
  typed?: boolean;
  /** Fields of one `exclusive` group are alternatives (potatoq: countdown or eta): the form
   *  offers one at a time, next to "Now"; the adapter refuses two. */
  exclusive?: string;
  /** Setting this field schedules the task for later instead of making it ready now. */
  schedules?: boolean;
  /** Shown folded under "More options". */
  advanced?: boolean;
}

/** A neutral typed value kind the form can enter (see typed-value.ts). */
export type TypedKind = 'datetime' | 'date' | 'time' | 'timedelta' | 'uuid' | 'decimal' | 'bytes' | 'set';

/**
 * What the enqueue action takes on this system. The request is `{task, queue, fields}`: the
 * adapter validates `fields` with its own schema and answers InvalidInput with errors keyed by
 * field path (`args.0`, `kwargs.when`, `eta`).
 */
export interface EnqueueDecl extends ActionDecl {
  /** The inputs besides task name and queue, in form order. */
  fields: EnqueueFieldDecl[];
  /** The queue used when none is given. */
  defaultQueue: string;
  /** How typed values are written inside `typed` JSON fields: `template` with `{kind}` and
   *  `{value}` (the value as JSON: ISO text, Decimal text, base64, seconds, a list for sets). */
  typed?: { kinds: TypedKind[]; template: string };
  /** Where the queue follows the task, how the system knows it (one sentence), e.g. from the
   *  registered task names and queues its workers report (`WorkerInfo`). Absent: it can't tell,
   *  and the form neither picks a queue nor warns about unknown task names. */
  routes?: string;
}
