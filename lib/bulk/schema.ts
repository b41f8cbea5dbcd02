// Inputs and DTOs of bulk jobs ("everything matching the filter"), shared by the server, the
// HTTP API and the browser. Client-safe: no server imports.
import { z } from 'zod';
import { ZTaskState, type ActionOutcome } from '@/lib/brokers/schema';

export type BulkAction = 'replay' | 'discard' | 'revoke' | 'move';
export const ZBulkAction = z.enum(['replay', 'discard', 'revoke', 'move']);

/** The capability a bulk action needs on its own broker (a move removes letters here). */
export const bulkCapability = (a: BulkAction) => (a === 'move' ? 'discard' : a);

export type BulkState = 'queued' | 'running' | 'paused' | 'cancelled' | 'done' | 'failed';

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
 *  revoke uses queue/task/id/q and the waiting state (running tasks are never changed). */
export const ZBulkFilter = z.object({
  queue: ZText,
  task: ZText,
  id: ZText,
  q: ZText,
  group: z.string().max(2000).optional(),
  state: ZTaskState.optional(),
  /** move: the broker the letters go to. */
  to: ZText,
});
export interface BulkFilter {
  queue?: string;
  task?: string;
  id?: string;
  q?: string;
  group?: string;
  /** One of the broker's declared states. */
  state?: string;
  /** move: the broker the letters go to (kept with the filter, so the state store has it). */
  to?: string;
}

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
  .refine((r) => (r.action === 'move') === (r.filter.to !== undefined), {
    message: 'a move names the broker to move to (filter.to); other actions take none',
    path: ['filter', 'to'],
  })
  .refine((r) => r.action === 'revoke' || r.filter.state === undefined, {
    message: 'dead letters have no state filter',
    path: ['filter', 'state'],
  });
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

export interface BulkProgress {
  total: number;
  /** Ids handed to the broker so far (succeeded + skipped + failed). */
  processed: number;
  succeeded: number;
  /** Changed since the snapshot (gone, or now running): nothing was done to them. */
  skipped: number;
  failed: number;
  batches: number;
}

/** Where a job stopped when the console running it went away (restart, crash). */
export interface Interruption {
  at: string;
  /** Ids handed to the broker before it stopped (their outcomes are known). */
  processed: number;
  /** Ids of the batch that was with the broker when it stopped: reported failed, maybe applied. */
  inFlight: number;
}

export interface BulkJobView {
  id: string;
  brokerId: string;
  action: BulkAction;
  filter: BulkFilter;
  state: BulkState;
  /** When the ids were captured; the job acts on exactly these ids. */
  snapshotAt: string;
  /** More ids matched than SNAPSHOT_CAP: only the first SNAPSHOT_CAP were captured. */
  capped: boolean;
  /** A text search only looked at the newest N rows (the broker bounds searches). */
  searchedNewest: number | null;
  expectedCount: number | null;
  rate: number | null;
  batchSize: number;
  progress: BulkProgress;
  startedAt: string | null;
  finishedAt: string | null;
  /** Why the job failed (a batch the broker refused as a whole); null otherwise. */
  error: { code: string; message: string } | null;
  /** Where a failed job stopped: the position in the snapshot and the first id of the batch that
   *  failed (resume starts there again); null unless failed. */
  stoppedAt: { index: number; id: string | null } | null;
  /** The first successful ids (a sample; the count is in progress.succeeded). */
  succeededSample: string[];
  skippedOutcomes: ActionOutcome[];
  failedOutcomes: ActionOutcome[];
  /** Outcome lists were cut for the response; the counts are exact. */
  outcomesTruncated: boolean;
  /** Set when the console running it stopped: it waits, paused, for a resume or a cancel. */
  interrupted?: Interruption | null;
}
