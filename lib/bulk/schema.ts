// Inputs and DTOs of bulk jobs ("everything matching the filter"), shared by the server, the
// HTTP API and the browser. Client-safe: no server imports.
import { z } from 'zod';
import { ZActionOutcome } from '@/lib/brokers/dto-actions';
import { ZTaskState } from '@/lib/brokers/schema';
import type { BrokerModel } from '@/lib/brokers/model';
import { leaveCapability } from '@/lib/brokers/move-pairing';
import { rangeProblem, ZTimeBound } from '@/lib/brokers/time-range';

/** `move`: dead letters to another broker; `move-waiting`: waiting tasks (lib/brokers/move-waiting.ts). */
export const ZBulkAction = z.enum(['replay', 'discard', 'revoke', 'move', 'move-waiting']);
export type BulkAction = z.infer<typeof ZBulkAction>;

/** Whether the action moves to another broker (it names one: `filter.to`). */
export const isBulkMove = (a: BulkAction) => a === 'move' || a === 'move-waiting';
/** Whether the action reads the task list (a state filter) rather than the dead letters. */
export const onTasks = (a: BulkAction) => a === 'revoke' || a === 'move-waiting';

/** The capability a bulk action needs on its own broker, whose model is `model` (a move removes
 *  letters here as they leave it: `leaveCapability`; a waiting task leaving its queue is a
 *  revoke there, as for the single move). */
export const bulkCapability = (a: BulkAction, model: BrokerModel | null) =>
  a === 'move' ? leaveCapability(model) : a === 'move-waiting' ? 'revoke' : a;

export const ZBulkState = z.enum(['queued', 'running', 'paused', 'cancelled', 'done', 'failed']);
export type BulkState = z.infer<typeof ZBulkState>;

/** Most ids one snapshot captures; beyond it the job says so (`capped`) instead of growing. */
export const SNAPSHOT_CAP = 100_000;
/** Ids per adapter call. */
export const BATCH_SIZE = 500;
/** Items per second; null or absent = as fast as the broker takes them. */
export const ZRate = z.coerce
  .number()
  .min(0.1, 'rate must be at least 0.1 per second')
  .max(10_000, 'rate must be at most 10,000 per second');

const ZText = z
  .string()
  .trim()
  .max(500)
  .optional()
  .transform((v) => (v ? v : undefined));

/** The list filter the operator was looking at. Dead-letter actions use queue/task/id/q/group;
 *  revoke and move-waiting use queue/task/id/q and a state (tasks a worker owns are never changed). */
export const ZBulkFilter = z.object({
  queue: ZText,
  task: ZText,
  id: ZText,
  q: ZText,
  group: z.string().max(2000).optional(),
  state: ZTaskState.optional(),
  /** Dead letters that died, or tasks that were enqueued, in this range. Resolved to instants
   *  when the job is created, so a "1h" is the hour before then, not a window sliding while the
   *  job runs. */
  since: ZTimeBound,
  until: ZTimeBound,
  /** move, move-waiting: the broker the letters (or waiting tasks) go to. */
  to: ZText,
});
/** The filter as a job keeps and answers it (the request's, parsed by `ZBulkFilter`). */
export const ZBulkFilterView = z.strictObject({
  queue: z.string().optional(),
  task: z.string().optional(),
  id: z.string().optional(),
  q: z.string().optional(),
  group: z.string().optional(),
  /** One of the broker's declared states. */
  state: z.string().optional(),
  /** The range of died (dead letters) or enqueued (tasks) times, as the instants the job froze (ISO). */
  since: z.string().optional(),
  until: z.string().optional(),
  /** move: the broker the letters go to (kept with the filter, so the state store has it). */
  to: z.string().optional(),
});
export type BulkFilter = z.infer<typeof ZBulkFilterView>;

export const ZBulkCreate = z
  .object({
    action: ZBulkAction,
    filter: ZBulkFilter.prefault({}),
    /** The count the operator saw before asking (a group's size); reported back if it differs. */
    expectedCount: z.coerce.number().int().min(0).optional(),
    rate: ZRate.optional(),
    /** Not needed to take a snapshot; the start asks for it. */
    reason: z.string().max(1000).optional(),
  })
  .refine((r) => isBulkMove(r.action) === (r.filter.to !== undefined), {
    message: 'a move names the broker to move to (filter.to); other actions take none',
    path: ['filter', 'to'],
  })
  .refine((r) => onTasks(r.action) || r.filter.state === undefined, {
    message: 'dead letters have no state filter',
    path: ['filter', 'state'],
  })
  .refine((r) => rangeProblem(r.filter) === null, { message: 'until must be later than since', path: ['filter', 'until'] });
export type BulkCreate = z.infer<typeof ZBulkCreate>;

export const ZJobId = z.string().regex(/^[a-z0-9-]{8,64}$/, 'not a bulk job id');
export const ZBulkOp = z.enum(['start', 'pause', 'resume', 'cancel', 'rate']);
export type BulkOp = z.infer<typeof ZBulkOp>;

export const ZBulkControl = z.object({
  jobId: ZJobId,
  op: ZBulkOp,
  /** start: the count the operator confirmed; must equal the snapshot's. */
  confirmCount: z.coerce.number().int().min(0).optional(),
  /** rate (and optionally start/resume): new items per second; null clears it. */
  rate: ZRate.nullable().optional(),
  /** start: why (the audit trail records it; required). */
  reason: z.string().max(1000).optional(),
});
export type BulkControl = z.infer<typeof ZBulkControl>;

// A job's answer: one zod definition per shape, the type inferred (docs/architecture.md).
const count = z.number().int().min(0);
export const ZBulkProgress = z.strictObject({
  total: count,
  /** Ids handed to the broker so far (succeeded + skipped + failed). */
  processed: count,
  succeeded: count,
  /** Changed since the snapshot (gone, or now running): nothing was done to them. */
  skipped: count,
  failed: count,
  batches: count,
});
export type BulkProgress = z.infer<typeof ZBulkProgress>;

/** Where a job stopped when the console running it went away (restart, crash). */
export const ZInterruption = z.strictObject({
  at: z.string(),
  /** Ids handed to the broker before it stopped (their outcomes are known). */
  processed: count,
  /** Ids of the batch that was with the broker when it stopped: reported failed, maybe applied. */
  inFlight: count,
});
export type Interruption = z.infer<typeof ZInterruption>;

export const ZBulkJobView = z
  .strictObject({
    id: z.string(),
    brokerId: z.string(),
    action: ZBulkAction,
    filter: ZBulkFilterView,
    state: ZBulkState,
    /** When the ids were captured; the job acts on exactly these ids. */
    snapshotAt: z.string().describe('ISO 8601 time the ids were captured; the job acts on exactly these ids'),
    /** More ids matched than SNAPSHOT_CAP: only the first SNAPSHOT_CAP were captured. */
    capped: z.boolean(),
    /** A text search only looked at the newest N rows (the broker bounds searches). */
    searchedNewest: z.number().int().nullable(),
    expectedCount: z.number().int().nullable(),
    rate: z.number().nullable(),
    batchSize: z.number().int(),
    progress: ZBulkProgress,
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    /** Why the job failed (a batch the broker refused as a whole); null otherwise. */
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
    /** Where a failed job stopped: the position in the snapshot and the first id of the batch that
     *  failed (resume starts there again); null unless failed. */
    stoppedAt: z.strictObject({ index: z.number().int(), id: z.string().nullable() }).nullable(),
    /** The first successful ids (a sample; the count is in progress.succeeded). */
    succeededSample: z.array(z.string()),
    skippedOutcomes: z.array(ZActionOutcome),
    failedOutcomes: z.array(ZActionOutcome),
    /** Outcome lists were cut for the response; the counts are exact. */
    outcomesTruncated: z.boolean(),
    /** Set when the console running it stopped: it waits, paused, for a resume or a cancel. */
    interrupted: ZInterruption.nullable().optional(),
  })
  .meta({ id: 'BulkJob' });
export type BulkJobView = z.infer<typeof ZBulkJobView>;
