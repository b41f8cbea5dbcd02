// What each action does on a system, as its adapter declares it (part of `BrokerModel`, see
// model.ts): the confirmation dialogs' sentences, the enqueue form's fields, how workers are
// known and how a call moves between brokers. Client-safe: no server imports. One zod
// definition per shape, the type inferred from it (docs/architecture.md).
import { z } from 'zod';

/** What one action does on this system, in one sentence for the confirmation dialog. */
export const ZActionDecl = z.strictObject({
  does: z.string().describe('what the action does on this system, one sentence'),
  /** The button's verb and an outcome's past tense where the system has a name of its own for
   *  the action (SDJ's and QueueFlow's revoke is their cancel): `{verb: 'Cancel', past:
   *  'cancelled'}`. Absent: the console's ("Revoke", "revoked"). */
  words: z.strictObject({ verb: z.string(), past: z.string() }).optional(),
  /** The system's own command that does the same, for copy-paste: `{ids}` / `{queue}` are
   *  filled in shell-quoted (`potatoq dead retry {ids}`). Absent when it has none. */
  cli: z.string().optional().describe("the system's own command that does the same ({ids}/{queue} filled in)"),
});
export type ActionDecl = z.infer<typeof ZActionDecl>;

/** The purge dialog's words: what goes (`what`, counted from `counts`), what stays. */
export const ZPurgeDecl = ZActionDecl.extend({
  what: z.string(),
  /** The states whose counts the dialog shows, e.g. ready and scheduled. */
  counts: z.array(z.string()),
  stays: z.string(),
});
export type PurgeDecl = z.infer<typeof ZPurgeDecl>;

/** The neutral kinds of an enqueue field; the form picks its input from the kind, the adapter's
 *  own zod schema decides what the value means. Values travel as the form's text (JSON values
 *  are accepted too; text keeps big integers exact).
 *  `text`: one line; `integer`: a whole number (text or number) within `min`/`max`;
 *  `json-list`: a JSON list (`typed`: the form offers the system's typed values); `json-object`;
 *  `datetime`: ISO 8601 with an offset (the form converts the viewer's local time to UTC);
 *  `duration`: seconds (fractions allowed) within `min`/`max`. */
export const ZEnqueueFieldKind = z.enum(['text', 'integer', 'json-list', 'json-object', 'datetime', 'duration']);
export type EnqueueFieldKind = z.infer<typeof ZEnqueueFieldKind>;

/** A neutral typed value kind the form can enter (see typed-value.ts). */
export const ZTypedKind = z.enum(['datetime', 'date', 'time', 'timedelta', 'uuid', 'decimal', 'bytes', 'set']);
export type TypedKind = z.infer<typeof ZTypedKind>;

/** One input of the enqueue form, as the adapter declares it. */
export const ZEnqueueFieldDecl = z
  .strictObject({
    /** The request's `fields` key, and the first segment of error paths (`kwargs.when`). */
    key: z.string(),
    kind: ZEnqueueFieldKind,
    label: z.string(),
    /** One sentence under the input (units, defaults, what the system does with it). */
    help: z.string().optional(),
    required: z.boolean().optional(),
    /** The form's initial text; absent: empty (the system's own default applies). */
    default: z.string().optional(),
    placeholder: z.string().optional(),
    /** Bounds of integer and duration fields. */
    min: z.number().optional(),
    max: z.number().optional(),
    /** JSON fields whose values may be typed (datetime, Decimal, ...): `EnqueueDecl.typed` says how. */
    typed: z.boolean().optional(),
    /** Fields of one `exclusive` group are alternatives (potatoq: countdown or eta): the form
     *  offers one at a time, next to "Now"; the adapter refuses two. */
    exclusive: z.string().optional(),
    /** Setting this field schedules the task for later instead of making it ready now. */
    schedules: z.boolean().optional(),
    /** Shown folded under "More options". */
    advanced: z.boolean().optional(),
  })
  .meta({
    id: 'EnqueueField',
    description: "One input an enqueue request's `fields` may carry on this broker, as its adapter declares it.",
  });
export type EnqueueFieldDecl = z.infer<typeof ZEnqueueFieldDecl>;

/**
 * What the enqueue action takes on this system. The request is `{task, queue, fields}`: the
 * adapter validates `fields` with its own schema and answers InvalidInput with errors keyed by
 * field path (`args.0`, `kwargs.when`, `eta`).
 */
export const ZEnqueueDecl = ZActionDecl.extend({
  /** The inputs besides task name and queue, in form order. */
  fields: z.array(ZEnqueueFieldDecl),
  /** The queue used when none is given. */
  defaultQueue: z.string(),
  /** How typed values are written inside `typed` JSON fields: `template` with `{kind}` and
   *  `{value}` (the value as JSON: ISO text, Decimal text, base64, seconds, a list for sets). */
  typed: z.strictObject({ kinds: z.array(ZTypedKind), template: z.string() }).optional(),
  /** Where the queue follows the task, how the system knows it (one sentence), e.g. from the
   *  registered task names and queues its workers report (`WorkerInfo`). Absent: it can't tell,
   *  and the form neither picks a queue nor warns about unknown task names. */
  routes: z.string().optional(),
});
export type EnqueueDecl = z.infer<typeof ZEnqueueDecl>;

/** How an operator learns about this system's workers, in its own words (never another system's). */
export const ZWorkersDecl = z.strictObject({
  /** How the console knows them, one sentence (the Workers page's subtitle): potatoq's heartbeats,
   *  Celery's broadcast inspect, or that the system keeps no worker registry. */
  known: z.string(),
  /** What an empty list means here ("No worker heartbeats are stored."). */
  none: z.string(),
  /** The system's own command that starts a worker, shown after `none`; absent where it has none. */
  start: z.string().optional(),
  /** The header of the time column: what the age counts from ("Heartbeat", "Answered"). */
  seen: z.string(),
});
export type WorkersDecl = z.infer<typeof ZWorkersDecl>;

/** A side of a cross-broker move this broker can or cannot take, in words. */
export const ZCallSide = z.union([z.strictObject({ does: z.string() }), z.strictObject({ why: z.string() })]);
export type CallSide = z.infer<typeof ZCallSide>;

/**
 * How this broker's work is shaped as a call (task name, args, kwargs, queue, eta: Celery's
 * call model), and whether a dead letter can leave it as such a call (`export`, then removed
 * here as a discard removes it) and a call can arrive (`import`, enqueued under the letter's
 * own id). A move is offered only between brokers of the same `model`.
 */
export const ZCallsDecl = z.strictObject({
  /** Brokers whose models are equal can move letters between them ("celery-compatible"). */
  model: z.string(),
  /** What this broker reads as the call, or why its letters can't leave as calls. */
  export: ZCallSide,
  /** What this broker writes for a call, or why it can't take one. An import that is on
   *  keeps the letter's id and tells whether that id is already here (waiting, running, dead
   *  or finished): that check is what makes a retried move `already` instead of a second run. */
  import: ZCallSide,
  /** Call attributes a call cannot keep when this broker takes it, each with why: the outcome
   *  of a move of a call that has one says so (absent: it keeps them all, `TaskCall`). */
  drops: z.strictObject({ ignoreResult: z.string().optional() }).optional(),
  /** Present where the import is idempotent by a key derived from the letter's id (a second
   *  send returns the first task and creates nothing): how, in the system's words. A move
   *  that stopped between its steps then simply sends again instead of asking the operator. */
  keyed: z.string().optional(),
  /** How a letter that moved away leaves this broker: `discard` (absent) deletes it; `replay`
   *  where the system cannot delete a letter: it is replayed and the copy cancelled before any
   *  worker can take it (the letter then reads as replayed), which needs `replay` and `pause`. */
  leaves: z.enum(['discard', 'replay']).optional(),
  /** Whether waiting work (not only dead letters) can leave as calls (lib/brokers/move-waiting.ts):
   *  what taking a waiting task does here (removed from where workers take it, in the step that
   *  claims it), or why not. Absent: only dead letters move. */
  waiting: ZCallSide.optional(),
});
export type CallsDecl = z.infer<typeof ZCallsDecl>;
