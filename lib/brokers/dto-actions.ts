// Output DTOs of the actions (per-id outcomes, purge, pause, enqueue), the health check and
// find-by-id. One zod definition per shape, the type inferred from it (docs/architecture.md,
// "One definition per response"). Client-safe: no server imports. Re-exported by dto.ts.
import { z } from 'zod';

/** `already`: it was done before (QueueFlow replays a letter once: "already replayed as job
 *  X"); nothing changed now, and doing it again would not change anything either. */
export const ZOutcomeCode = z.enum(['ok', 'missing', 'running', 'conflict', 'invalid', 'already', 'error']);
export type OutcomeCode = z.infer<typeof ZOutcomeCode>;

export const ZActionOutcome = z
  .strictObject({
    id: z.string(),
    outcome: ZOutcomeCode,
    message: z.string(),
    /** The task this outcome is about when it is not `id`: the job a replay created where the
     *  system gives replays a new id (QueueFlow), also for `already` (the earlier replay's job). */
    taskId: z
      .string()
      .optional()
      .describe(
        'The task this outcome is about when it is not `id` (a replay that made a new job); `already`: done before, nothing to retry.',
      ),
    /** The action refused this id so as not to run a task twice, and the same action with
     *  `force` may act on it once the operator has checked (a move over an earlier interrupted
     *  move of the letter: lib/brokers/move-one.ts). */
    forcible: z.boolean().optional().describe('refused so as not to run a task twice; the same action with `force` may act on it'),
  })
  .meta({ id: 'ActionOutcome' });
export type ActionOutcome = z.infer<typeof ZActionOutcome>;

export const ZActionResult = z
  .strictObject({
    action: z.enum(['replay', 'discard', 'revoke', 'purge', 'enqueue', 'move']),
    brokerId: z.string(),
    requested: z.number().int(),
    succeeded: z.array(ZActionOutcome),
    failed: z.array(ZActionOutcome),
    /** The campaign following what became of the replayed tasks (/campaigns/<id>); absent when none was made. */
    campaign: z.string().optional().describe('the campaign following the replayed tasks, where one was made'),
  })
  .meta({ id: 'ActionResult' });
export type ActionResult = z.infer<typeof ZActionResult>;

export const ZPurgeResult = z
  .strictObject({ brokerId: z.string(), queue: z.string(), removed: z.number().int() })
  .meta({ id: 'PurgeResult' });
export type PurgeResult = z.infer<typeof ZPurgeResult>;

/** A queue paused or resumed (`pause`), with the counts the system answered (null: unknown). */
export const ZQueuePauseResult = z
  .strictObject({
    brokerId: z.string(),
    queue: z.string(),
    paused: z.boolean(),
    pending: z.number().int().nullable(),
    running: z.number().int().nullable(),
  })
  .meta({ id: 'QueuePauseResult' });
export type QueuePauseResult = z.infer<typeof ZQueuePauseResult>;

export const ZEnqueueResult = z
  .strictObject({
    brokerId: z.string(),
    id: z.string(),
    queue: z.string(),
    task: z.string(),
    /** The declared state the task is in now (its tab): the first state, or the one for later
     *  work where the enqueue scheduled it (potatoq: `ready`/`scheduled`; QueueFlow: `pending`/`scheduled`). */
    state: z.string().describe('the declared state the task is in now'),
    /** The exact JSON written to the broker. */
    payload: z.string().describe('the exact JSON written to the broker'),
    /** Set when nothing was written because the system already had the task (QueueFlow: an
     *  idempotency key it has seen returns its earlier job): outcome `already`, naming `id`.
     *  Absent when the task was created. */
    outcome: ZActionOutcome.optional().describe('set when nothing was written because the system already had the task'),
    /** Request headers the write sends besides the payload (QueueFlow's `Idempotency-Key`),
     *  shown with the preview; absent when none. */
    headers: z.array(z.strictObject({ name: z.string(), value: z.string() })).optional(),
  })
  .meta({ id: 'EnqueueResult' });
export type EnqueueResult = z.infer<typeof ZEnqueueResult>;

/** What an enqueue would write, built by the adapter without writing anything (the form's live
 *  preview); the id and times of the real write differ. */
export const ZEnqueuePreview = ZEnqueueResult.extend({
  preview: z.literal(true),
  /** The system's own command that enqueues the same task, and the fields it cannot express;
   *  null when the system has no such command. */
  command: z.strictObject({ line: z.string(), missing: z.array(z.string()) }).nullable(),
}).meta({ id: 'EnqueuePreview' });
export type EnqueuePreview = z.infer<typeof ZEnqueuePreview>;

export const ZHealthEntry = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    kind: z.string(),
    ok: z.boolean(),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'HealthEntry' });
export type HealthEntry = z.infer<typeof ZHealthEntry>;

/** One place an id was found in a broker (find by id). No arguments: names, states and times only. */
export const ZFoundItem = z.strictObject({
  /** Where: a task in one of the broker's declared states, a dead letter, or a stored result. */
  kind: z.enum(['task', 'dead', 'result']),
  /** The task's declared state key, `dead`, or the result's status (`SUCCESS`, `REVOKED`, ...). */
  state: z.string(),
  task: z.string().nullable(),
  queue: z.string().nullable(),
  /** When it got there: enqueued, died, or done. */
  at: z.string().nullable(),
});
export type FoundItem = z.infer<typeof ZFoundItem>;

/** An id looked up in one broker: what was found, and the lookups that could not answer. */
export const ZBrokerFind = z.strictObject({
  brokerId: z.string(),
  name: z.string(),
  items: z.array(ZFoundItem),
  /** e.g. `{ what: 'dead letters', code: 'Unsupported', message: 'RabbitMQ 3.10: …' }`. */
  notSearched: z.array(z.strictObject({ what: z.string(), code: z.string(), message: z.string() })),
});
export type BrokerFind = z.infer<typeof ZBrokerFind>;
