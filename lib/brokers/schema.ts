// DTOs shared by adapters, the HTTP API and the client. Inputs are the zod schemas here;
// outputs are the plain JSON-safe interfaces in dto.ts (ids and big numbers as strings,
// timestamps as ISO strings), re-exported below. Client-safe: no server imports.
import { z } from 'zod';
import type { TaskState } from './dto';

export { CAPABILITIES, SYSTEM_KINDS, WRITE_ACTIONS, countOf, withoutWrites } from './dto';
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
  /** A dead-letter group's fingerprint (`DeadGroup.fingerprint`): the letters of that group. */
  group: z.string().max(2000).optional(),
  cursor: z.string().max(2000).optional(),
  limit: ZLimit,
});
export type DeadListQuery = z.infer<typeof ZDeadListQuery>;

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
    countdown: z.coerce
      .number()
      .min(0, 'countdown cannot be negative')
      .max(10 * 365 * 86400)
      .optional(),
    /** ISO 8601 date-time with offset, or Unix seconds. */
    eta: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** ISO 8601 date-time, or seconds from now when a plain number. */
    expires: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** JSON text of an object. */
    headers: z.string().max(100_000).default('{}'),
  })
  .refine((r) => !(r.countdown !== undefined && r.eta !== undefined), {
    message: 'give either a countdown or an eta, not both',
    path: ['eta'],
  });
export type EnqueueRequest = z.infer<typeof ZEnqueueRequest>;

export type * from './dto';
