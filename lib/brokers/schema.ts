// DTOs shared by adapters, the HTTP API and the client. Inputs are the zod schemas here;
// outputs are the JSON-safe types of dto.ts (ids and big numbers as strings, timestamps as ISO
// strings), each inferred from its zod definition there, re-exported below as types (import
// a definition itself, `ZQueueStats`, from dto.ts). Client-safe: no server imports.
import { z } from 'zod';
import type { TaskState } from './dto';
import { ZTimeBound } from './time-range';

export {
  CAPABILITIES,
  DEAD,
  STATE_ROLES,
  SYSTEM_KINDS,
  WRITE_ACTIONS,
  allCapabilities,
  countOf,
  defaultState,
  listCapability,
  listing,
  listingOf,
  noWorkflows,
  stateOfRole,
  timeOf,
  withoutWrites,
} from './dto';
/** A state name; which ones a broker has is its adapter's declared model (the service checks). */
export const ZTaskState = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'not a state name') satisfies z.ZodType<TaskState>;

const ZLimit = z.coerce.number().int().min(1).max(500).default(50);
const ZText = z
  .string()
  .trim()
  .max(500)
  .optional()
  .transform((v) => (v ? v : undefined));

/** A task list request. Without `state`, the broker's own default (`defaultState`: the state
 *  that plays `waiting`), which the service fills in from the adapter's model. */
export const ZTaskListQuery = z.object({
  state: ZTaskState.optional(),
  queue: ZText,
  task: ZText,
  id: ZText,
  q: ZText,
  /** Tasks enqueued at or after / before these instants (their `createdAt`, whatever the
   *  state; lib/brokers/time-range.ts). Only where the broker's `taskRange` capability is on. */
  since: ZTimeBound,
  until: ZTimeBound,
  cursor: z.string().max(2000).optional(),
  limit: ZLimit,
});
export type TaskListRequest = z.infer<typeof ZTaskListQuery>;
/** What an adapter's `listTasks` receives: a request with its state decided (one of its keys). */
export type TaskListQuery = TaskListRequest & { state: TaskState };

export const ZDeadListQuery = z.object({
  queue: ZText,
  task: ZText,
  id: ZText,
  q: ZText,
  /** Where `q` looks: the reason and the message (default), or the reason only (what argument
   *  redaction allows: a search in arguments would tell a viewer what they hold). */
  qIn: z.enum(['all', 'reason']).optional(),
  /** A dead-letter group's fingerprint (`DeadGroup.fingerprint`): the letters of that group. */
  group: z.string().max(2000).optional(),
  /** Letters that died at or after this instant (a duration ago is resolved when read). Only
   *  where the broker's `deadRange` capability is on; `until` must be later (the service checks). */
  since: ZTimeBound,
  /** Letters that died before this instant (lib/brokers/time-range.ts). */
  until: ZTimeBound,
  cursor: z.string().max(2000).optional(),
  limit: ZLimit,
});
export type DeadListQuery = z.infer<typeof ZDeadListQuery>;
/** The filter part of a dead-letter list query (what a bulk job's snapshot matches). */
export type DeadFilter = Partial<Omit<DeadListQuery, 'cursor' | 'limit'>>;

/** The stuck-work diagnosis: scheduled tasks count as overdue past `overdue` seconds. */
export const ZDiagnosisQuery = z.object({
  overdue: z.coerce
    .number()
    .int('overdue must be a whole number of seconds')
    .min(1, 'overdue must be at least 1 second')
    .max(30 * 86400, 'overdue must be at most 30 days')
    .optional()
    .describe('seconds past their due time after which scheduled tasks are flagged (default POTATOQ_CONSOLE_OVERDUE_SECONDS, else 120)'),
});

export const ZDeadGroupsQuery = z.object({
  queue: z
    .string()
    .max(500)
    .optional()
    .transform((v) => v || undefined),
});

export const ZResultListQuery = z.object({
  status: ZText,
  /** Results of tasks that finished at or after / before these instants (lib/brokers/time-range.ts);
   *  only where the broker's `resultRange` capability is on. */
  since: ZTimeBound,
  until: ZTimeBound,
  cursor: z.string().max(2000).optional(),
  limit: ZLimit,
});
export type ResultListQuery = z.infer<typeof ZResultListQuery>;

/** A task id as potatoq stores it: any non-empty text; we bound the size. */
/** Bounds of one id action's request (larger sets go through a bulk job by filter). */
export const MAX_IDS_PER_CALL = 1_000;
export const MAX_ID_LENGTH = 256;
export const ZTaskId = z
  .string()
  .min(1, 'empty id')
  .max(MAX_ID_LENGTH, `id longer than ${MAX_ID_LENGTH} characters`)
  .refine((s) => !s.includes('\u0000'), 'id contains a NUL character');
export const ZIds = z.object({
  ids: z
    .array(ZTaskId)
    .min(1, 'no ids given')
    .max(MAX_IDS_PER_CALL, `at most ${MAX_IDS_PER_CALL.toLocaleString('en-US')} ids per call; use "all matching" (a bulk job) for more`),
});
export type Ids = z.infer<typeof ZIds>;

/** Queue names as potatoq accepts them on every broker (RabbitMQ forbids `.`, `#`, `*`). */
export const ZQueueName = z.string().trim().min(1, 'queue name is required').max(200, 'queue name longer than 200 characters');

/** The most an enqueue request's field values may hold, together (JSON text of each). */
export const MAX_ENQUEUE_FIELDS_CHARS = 1_500_000;

/**
 * One task to enqueue: its name, its queue (absent: the system's default queue) and the values
 * of the fields its adapter declares (`model.actions.enqueue.fields`), keyed by field key. The
 * values are the form's text or JSON values; the adapter's own schema says what each means and
 * answers errors keyed by field path (`kwargs.when`). Neutral: nothing here is any one system's.
 */
export const ZEnqueueRequest = z.object({
  task: z.string().trim().min(1, 'task name is required').max(500, 'task name longer than 500 characters'),
  queue: ZQueueName.optional(),
  /** Send a task or queue name that looks like a misspelling of one the broker has shown
   *  (lib/brokers/enqueue-names.ts). Never reaches the adapter. */
  allowUnknown: z.boolean({ error: 'allowUnknown must be true or false' }).optional(),
  fields: z
    .record(z.string().max(100), z.unknown())
    .default({})
    .refine(
      (f) => (JSON.stringify(f)?.length ?? 0) <= MAX_ENQUEUE_FIELDS_CHARS,
      'the field values are too large (at most 1.5 MB together)',
    ),
});
export type EnqueueRequest = z.infer<typeof ZEnqueueRequest>;

export type * from './dto';
