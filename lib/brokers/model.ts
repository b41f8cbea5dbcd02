// What an adapter declares about its system (the contract's vocabulary): the systems, the
// capabilities and the write actions among them, the states it lists and what each action does
// (model-actions.ts). Client-safe: no server imports. Re-exported by dto.ts and schema.ts. One
// zod definition per shape, the type inferred from it (docs/architecture.md).
import { z } from 'zod';
import { ZActionDecl, ZCallsDecl, ZEnqueueDecl, ZEnqueueFieldDecl, ZPurgeDecl, ZTypedKind, ZWorkersDecl } from './model-actions';

export * from './model-actions';
import { ZWorkflowsDecl } from './workflow-schema';

/** The queue systems a broker entry may name (`"kind"`); the registry says which are supported. */
export const SYSTEM_KINDS = ['potatoq', 'celery', 'sdj', 'queueflow'] as const;
export const ZSystemKind = z.enum(SYSTEM_KINDS);
export type SystemKind = z.infer<typeof ZSystemKind>;

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
  // The Workflows view (runs of a DAG of steps) and the system's retry of a failed run.
  'workflows',
  'retryWorkflow',
  'family',
  // A campaign's follow-up: where a replayed task is now (succeeded, dead again, waiting, gone).
  'fate',
  // The dead-letter list filtered by when each letter died (`since`/`until`), read by the
  // system's own died time: off with why where the system keeps none it can filter on.
  'deadRange',
  // The results list filtered by when each task finished (`since`/`until`), likewise.
  'resultRange',
  // The task lists (every declared state) filtered by when each task was enqueued (its
  // `createdAt`, on every state: the scheduled list too, whose eta is its order), likewise.
  'taskRange',
] as const;
export type FixedCapability = (typeof CAPABILITIES)[number];
/** Whether the tasks of one declared state can be listed here: `list:` and the state's key. */
export type ListCapability = `list:${string}`;
export type Capability = FixedCapability | ListCapability | ScheduleCapability;
/** Whether schedules can be read (`schedules`) and changed (`schedules:write`) here: derived
 *  from the model's `schedules` declaration (lib/brokers/schedule-model.ts), per call where an
 *  adapter says more (a read-only token). Absent from an adapter's answer: the declaration's. */
export const SCHEDULE_CAPABILITIES = ['schedules', 'schedules:write'] as const;
export type ScheduleCapability = (typeof SCHEDULE_CAPABILITIES)[number];
/** `code`, when off: the error the server answers for it (`Forbidden`: not for this user;
 *  `ReadOnly`: configured read-only); absent means the system cannot (`Unsupported`). */
export const ZCap = z
  .strictObject({
    on: z.boolean(),
    why: z.string().optional().describe('why not, in the operator’s words, when off'),
    code: z.enum(['Forbidden', 'ReadOnly']).optional(),
  })
  .meta({ id: 'Capability' });
export type Cap = z.infer<typeof ZCap>;
/** The fixed capabilities, and `list:<key>` for each declared state (absent: not listed). A key
 *  that is neither is refused (the DTO is exact; the OpenAPI description lets more through). */
export const ZCapabilities = z
  .strictObject({
    ...(Object.fromEntries(CAPABILITIES.map((k) => [k, ZCap])) as Record<FixedCapability, typeof ZCap>),
    ...(Object.fromEntries(SCHEDULE_CAPABILITIES.map((k) => [k, ZCap.optional()])) as Record<
      ScheduleCapability,
      z.ZodOptional<typeof ZCap>
    >),
  })
  .catchall(ZCap)
  .check((ctx) => {
    const known: readonly string[] = [...CAPABILITIES, ...SCHEDULE_CAPABILITIES];
    for (const k of Object.keys(ctx.value))
      if (!known.includes(k) && !k.startsWith('list:'))
        ctx.issues.push({ code: 'custom', message: `not a capability: ${k}`, input: k, path: [k] });
  })
  .describe(
    'each fixed capability (`replay`, `browseDead`, ...) and `list:<state key>` per declared state: whether its tasks can be listed here',
  );
export type Capabilities = z.infer<typeof ZCapabilities>;

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
export const WRITE_ACTIONS = [
  'replay',
  'discard',
  'revoke',
  'purge',
  'enqueue',
  'pause',
  'retryWorkflow',
] as const satisfies readonly Capability[];
export type WriteAction = (typeof WRITE_ACTIONS)[number];

/** The Workflows view and its retry, off on a system without workflows, for `why` (its words). */
export const noWorkflows = (why: string): Pick<Capabilities, 'workflows' | 'retryWorkflow'> => ({
  workflows: { on: false, why },
  retryWorkflow: { on: false, why },
});

/** `caps` with every write turned off for `why` (read-only configuration, a standby, ...). */
export function withoutWrites(caps: Capabilities, why: string, code?: 'Forbidden' | 'ReadOnly'): Capabilities {
  const out = { ...caps };
  for (const k of WRITE_ACTIONS) out[k] = code ? { on: false, why, code } : { on: false, why };
  // Changing a schedule is a write too (kept out of WRITE_ACTIONS: its capability is optional).
  if (out['schedules:write']?.on) out['schedules:write'] = code ? { on: false, why, code } : { on: false, why };
  return out;
}

/** A state of waiting or running work, one of the adapter's declared `model.states` keys. */
export type TaskState = string;

/** How a state's list is ordered. `claim`: the order a worker takes them (the system's own rule,
 *  priority first on most); `time`: by one of the task's times (`timeOf` key), ascending or
 *  descending. `label` says it in the operator's words ("soonest run time first"). */
export const ZListOrder = z
  .discriminatedUnion('by', [
    z.strictObject({ label: z.string(), by: z.literal('claim') }),
    z.strictObject({ label: z.string(), by: z.literal('time'), field: z.string(), dir: z.enum(['asc', 'desc']) }),
  ])
  .meta({ id: 'ListOrder' });
export type ListOrder = z.infer<typeof ZListOrder>;

export const STATE_ROLES = ['waiting', 'scheduled', 'running'] as const;
export const ZStateRole = z.enum(STATE_ROLES);
export type StateRole = z.infer<typeof ZStateRole>;

/** One state an adapter lists: a tab on the queue page and a column of the overview. */
export const ZStateDecl = z
  .strictObject({
    /** In URLs (`?state=`), list queries, counts and its listing capability (`list:<key>`). */
    key: z.string(),
    label: z.string(),
    /** The task time this state's time column shows, and its header ("Enqueued",
     *  "Runs", ...): a key of the task's times (`timeOf`: `createdAt`, `runAt`, `claimedAt`, or
     *  one the adapter adds to `TaskSummary.times`, e.g. `pausedAt`). */
    time: z.strictObject({ field: z.string(), label: z.string() }),
    /** The order the system lists this state's tasks in, which is not always the order of
     *  `time` (QueueFlow lists every status newest created first, whatever its run time). The
     *  queue page says it ("newest enqueued first"); the shared battery checks it. */
    order: ZListOrder,
    /** A worker owns tasks in this state: shown with their worker, never revoked or changed. */
    owned: z.boolean(),
    /** The part this state plays in every queue system's life of a task, when it plays one:
     *  `waiting` (due work a worker takes next: where an enqueue without a time lands, what the
     *  overview's oldest waiting age measures), `scheduled` (work held until its time),
     *  `running` (claimed by a worker). At most one state per role; a state of the system's own
     *  (retrying, paused, waiting on children) plays none. Generic code and the shared test
     *  battery find a state by its role, never by its key. */
    role: ZStateRole.optional(),
  })
  .meta({ id: 'StateDecl' });
export type StateDecl = z.infer<typeof ZStateDecl>;

/** The declared state that plays `role`, if one does. */
export const stateOfRole = (states: readonly StateDecl[], role: StateRole): StateDecl | undefined => states.find((s) => s.role === role);

/** The state a broker shows when none is asked for (a list query without `state`, the queue
 *  page without `?state=`, the depth a chart plots): the one that plays `waiting`, else the
 *  first declared. Undefined only for a model that declares no state. */
export const defaultState = (states: readonly StateDecl[]): StateDecl | undefined => stateOfRole(states, 'waiting') ?? states[0];

/**
 * What an adapter declares about its system, constant for its life: the states it shows (in
 * tab and column order; dead letters are always a tab of their own when `browseDead` is on),
 * and each action's effect in words. Capabilities (on/off with a reason) stay per call.
 */
/** How a schedule edit happens: in place, or as a delete followed by a create (said before it runs). */
export const ZScheduleEditDecl = ZActionDecl.extend({ how: z.enum(['in-place', 'replace']) });
export type ScheduleEditDecl = z.infer<typeof ZScheduleEditDecl>;

/** The Schedules tab of a system that keeps schedules. */
export const ZSchedulesDecl = z
  .strictObject({
    /** Where the schedules the tab lists come from, one sentence (the tab's subtitle). */
    source: z.string(),
    /** What the console cannot see on this system and why, one sentence each. */
    cannotSee: z.array(z.string()),
    /** The time zones the system evaluates expressions in; null where the console cannot know. */
    timeZones: z.array(z.string()).nullable(),
    /** The actions this system has; an absent one is not offered. */
    actions: z.strictObject({
      pause: ZActionDecl.optional(),
      resume: ZActionDecl.optional(),
      delete: ZActionDecl.optional(),
      /** One firing now, outside the schedule, under an idempotency key of its own. */
      runNow: ZActionDecl.optional(),
      /** `fields`: the inputs besides name, expression, time zone and task (the enqueue form's kinds). */
      create: ZActionDecl.extend({ fields: z.array(ZEnqueueFieldDecl), minSeconds: z.number() }).optional(),
      edit: ZScheduleEditDecl.optional(),
    }),
  })
  .meta({ id: 'SchedulesDecl' });
export type SchedulesDecl = z.infer<typeof ZSchedulesDecl>;

/** A system's schedules: declared, or off with why (Celery: beat's schedule lives in the app). */
export const ZSchedulesModel = z.union([ZSchedulesDecl, z.strictObject({ off: z.string() })]);
export type SchedulesModel = z.infer<typeof ZSchedulesModel>;

/** A task in its system's words (`BrokerModel.task`). */
export const ZTaskDecl = z
  .strictObject({
    /** One and several of them: "job", "jobs". */
    noun: z.string(),
    nouns: z.string(),
    /** What its name is called where that is not "Task" (SDJ's `type`: "Type"). */
    name: z.string().optional(),
    /** How its arguments are shaped. `call`: positional and keyword arguments (Celery's call
     *  model). `value`: one value handed to the handler whole (SDJ's `args`, QueueFlow's `payload`
     *  object), shown as one section named `label`, `help` saying what it is; an adapter may carry
     *  it as `args` (a list), `kwargs` (an object) or its `args` field (anything else). */
    payload: z.discriminatedUnion('shape', [
      z.strictObject({ shape: z.literal('call') }),
      z.strictObject({ shape: z.literal('value'), label: z.string(), help: z.string() }),
    ]),
    /** What `TaskSummary.deliveries` counts on this system: the column's and field's name
     *  ("Attempt") and one sentence (the header's title) naming the system's own field. */
    deliveries: z.strictObject({ label: z.string(), help: z.string() }),
  })
  .meta({ id: 'TaskDecl' });
export type TaskDecl = z.infer<typeof ZTaskDecl>;

export const ZBrokerModel = z
  .strictObject({
    system: ZSystemKind,
    states: z.array(ZStateDecl),
    actions: z.strictObject({
      /** `bulkRate`: a bulk replay is paced at this many per second unless changed (null: not paced). */
      replay: ZActionDecl.extend({
        bulkRate: z.number().nullable(),
        /** The replay is a new task with an id of its own and the letter stays, marked replayed
         *  (QueueFlow); absent: the letter's task goes back under its own id (potatoq). */
        newTask: z.boolean().optional(),
      }),
      discard: ZActionDecl,
      revoke: ZActionDecl.extend({ bulk: z.string() }),
      purge: ZPurgeDecl,
      enqueue: ZEnqueueDecl,
      /** Present where the system can hold a queue's work back from its workers (QueueFlow's
       *  pause); `resume` says what resuming does. */
      pause: ZActionDecl.extend({ resume: z.string() }).optional(),
      /** Present where the adapter replays a letter with edited arguments, kwargs, queue or
       *  priority (`replayEdited`); `sameId`: the task keeps the letter's id (else a new one). */
      replayEdited: ZActionDecl.extend({
        sameId: z.boolean(),
        /** Why positional arguments can't be edited (the system has none: QueueFlow's payload is
         *  one JSON object, edited key by key); absent where they can. */
        noArgs: z.string().optional(),
        /** The editor's name for the keyword arguments and for one of them (QueueFlow: its
         *  payload's keys); absent: "Keyword arguments", "keyword argument". */
        kwargs: z.strictObject({ label: z.string(), entry: z.string() }).optional(),
        /** The typed kinds a value may be edited as, besides JSON's own (text, numbers, true/false,
         *  null, lists, objects): what the system's workers receive as such (QueueFlow: none, its
         *  payload is JSON). Absent: every kind the editor knows. */
        kinds: z.array(ZTypedKind).optional(),
      }).optional(),
      /** Present where the system can delete a workflow with its whole subtree (the adapter's
       *  `deleteFamily`, gated by `discard`); `guard` says what the system refuses. */
      deleteFamily: ZActionDecl.extend({ guard: z.string() }).optional(),
      /** Present where the adapter can turn another system's message into one of its own;
       *  `what` names such a letter ("Celery letter"). */
      convert: ZActionDecl.extend({ what: z.string() }).optional(),
    }),
    /** What the results page lists on this system (potatoq's and Celery's stored records,
     *  QueueFlow's finished jobs): `statuses` the filter takes (its hint), `all` what it shows
     *  without one. Absent: the page names no system's statuses. */
    results: z.strictObject({ does: z.string(), statuses: z.array(z.string()), all: z.string() }).optional(),
    /** How this system's workers are known, in the Workers page's words. Absent: neutral words. */
    workers: ZWorkersDecl.optional(),
    /** What this system calls a task and its parts, on every page and dialog. Absent: potatoq's
     *  and Celery's words: a "task", positional and keyword arguments, a count of deliveries. */
    task: ZTaskDecl.optional(),
    /** Present where dead letters can move between this broker and brokers of another system
     *  that shares its call model (lib/brokers/move.ts pairs them). */
    calls: ZCallsDecl.optional(),
    /** Whether this system keeps schedules (cron, periodic tasks) the console can read, what the
     *  Schedules tab shows and which actions it offers; `{off}` says why not. Absent: the system
     *  declares nothing (treated as off). lib/brokers/schedule-model.ts. */
    schedules: ZSchedulesModel.optional(),
    /** Its workflow runs' statuses and retry, in its words; present with capability `workflows`. */
    workflows: ZWorkflowsDecl.optional(),
  })
  .meta({ id: 'BrokerModel', description: "The adapter's declaration: its states, what each action does, the enqueue fields." });
export type BrokerModel = z.infer<typeof ZBrokerModel>;
