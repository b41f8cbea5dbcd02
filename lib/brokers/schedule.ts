// The Schedules tab's DTOs and inputs, each a zod schema with its type inferred. JSON-safe:
// ids as strings, times as ISO strings, null where the system does not say. Client-safe.
import { z } from 'zod';

/** What a schedule's last firing produced, where the system links a firing to its work. */
export const ZScheduleFiring = z.object({
  /** When it fired (the system's record), ISO. */
  at: z.string(),
  /** The instant it was due, where the system keeps it apart from `at` (a late or collapsed firing). */
  dueAt: z.string().nullable(),
  /** The job or task it produced; null where the system does not record it. */
  jobId: z.string().nullable(),
  /** That job's state in the system's words (`completed`, `failed`, ...); null when unknown. */
  state: z.string().nullable(),
  /** Where the console shows that job: a task page, a dead letter, a result; null: nowhere. */
  link: z.enum(['task', 'dead', 'result']).nullable(),
  /** Why nothing is linked, or what is known about the job, in words. */
  note: z.string().nullable(),
});
export type ScheduleFiring = z.infer<typeof ZScheduleFiring>;

/** Something wrong with a schedule, with its cause in the operator's words. */
export const ZScheduleProblem = z.object({
  kind: z.enum(['missed', 'failing']),
  cause: z.string(),
  /** Since when (ISO): the firing that should have happened, or the failed job's time. */
  since: z.string().nullable(),
});
export type ScheduleProblem = z.infer<typeof ZScheduleProblem>;

export const ZSchedule = z.object({
  id: z.string(),
  name: z.string(),
  /** The task each firing runs; null where the system does not keep it with the schedule. */
  task: z.string().nullable(),
  queue: z.string().nullable(),
  /** The expression as the system stores it; null where the console cannot see it. */
  cron: z.string().nullable(),
  /** The expression in words ("every 5 minutes"), or what is known about it. */
  words: z.string(),
  /** The time zone the expression is evaluated in; null when unknown. */
  timeZone: z.string().nullable(),
  /** Null where the system has no pause, or the console cannot tell. */
  paused: z.boolean().nullable(),
  nextAt: z.string().nullable(),
  last: ZScheduleFiring.nullable(),
  /** The payload each firing sends, as JSON text (shown as text, never markup); null: not stored here. */
  payload: z.string().nullable(),
  problems: z.array(ZScheduleProblem),
});
export type Schedule = z.infer<typeof ZSchedule>;

export const ZScheduleList = z.object({
  schedules: z.array(ZSchedule),
  /** The list stopped at a cap (`notes` says which). */
  capped: z.boolean(),
  /** What the console read and what it could not, in words. */
  notes: z.array(z.string()),
  readAt: z.string(),
});
export type ScheduleList = z.infer<typeof ZScheduleList>;

/** A schedule id as the routes take it. */
export const ZScheduleId = z.string().trim().min(1, 'schedule id is required').max(256, 'schedule id longer than 256 characters');

/** Create (or the replacement of an edit): what every system's form has, and its own fields. */
export const ZScheduleInput = z.object({
  name: z.string().trim().min(1, 'name is required').max(200, 'name longer than 200 characters'),
  cron: z.string().trim().min(1, 'cron expression is required').max(200, 'cron expression longer than 200 characters'),
  timeZone: z.string().trim().max(100, 'time zone longer than 100 characters').default('UTC'),
  task: z.string().trim().min(1, 'task name is required').max(500, 'task name longer than 500 characters'),
  queue: z.string().trim().max(200, 'queue name longer than 200 characters').optional(),
  fields: z.record(z.string().max(100), z.unknown()).default({}),
});
export type ScheduleInput = z.infer<typeof ZScheduleInput>;

/** The exact call a create or edit would make: method, path and body as sent (no credentials). */
export const ZScheduleCall = z.object({ method: z.string(), path: z.string(), body: z.string().nullable() });
export type ScheduleCall = z.infer<typeof ZScheduleCall>;

export const ZSchedulePreview = z.object({
  /** In order: an edit that replaces is a delete, then a create. */
  calls: z.array(ZScheduleCall),
  /** The expression in words and its next firings (ISO), as the console computes them. */
  words: z.string(),
  next: z.array(z.string()),
  /** What the operator should know before sending (an edit that replaces, a time zone). */
  notes: z.array(z.string()),
});
export type SchedulePreview = z.infer<typeof ZSchedulePreview>;

export const SCHEDULE_ACTIONS = ['pause', 'resume', 'delete', 'run-now'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

/** One schedule action's outcome: what the system answered, and the job a run-now created. */
export const ZScheduleOutcome = z.object({
  id: z.string(),
  outcome: z.enum(['ok', 'already']),
  message: z.string(),
  jobId: z.string().nullable(),
});
export type ScheduleOutcome = z.infer<typeof ZScheduleOutcome>;

/** `confirm` repeats the schedule's name exactly (typed confirmation); `key` makes a run-now
 *  idempotent: the same key again returns the job the first one made. */
export const ZScheduleActionRequest = z.object({
  id: ZScheduleId,
  confirm: z.string().max(200),
  key: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{8,64}$/, 'key: 8 to 64 letters, digits or dashes')
    .optional(),
  reason: z.string().optional(),
});
export type ScheduleActionRequest = z.infer<typeof ZScheduleActionRequest>;

export const ZScheduleCreateRequest = ZScheduleInput.extend({ reason: z.string().optional() });
export const ZScheduleEditRequest = ZScheduleInput.extend({
  id: ZScheduleId,
  confirm: z.string().max(200),
  reason: z.string().optional(),
});
