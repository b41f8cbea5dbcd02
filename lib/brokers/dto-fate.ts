// What became of a replayed task on its system (a campaign's follow-up, lib/campaigns/): one
// definition per shape (docs/architecture.md). Client-safe: no server imports. Re-exported by dto.ts.
import { z } from 'zod';

/**
 * A replayed task's fate, as its system tells it:
 * - `succeeded`: the system kept a successful result (or, without results, says it finished well);
 * - `dead`: it failed for good again (a dead letter or a failed result), with the error's fingerprint;
 * - `waiting` / `running`: not settled yet (waiting includes scheduled and retrying work);
 * - `gone`: nothing with this id is left (its result expired or was never kept): not a success;
 * - `unknown`: the system cannot tell (`why` says so).
 */
export const FATES = ['succeeded', 'dead', 'waiting', 'running', 'gone', 'unknown'] as const;
export const ZFateKind = z.enum(FATES);
export type FateKind = z.infer<typeof ZFateKind>;

/** The fates that will not change any more. `gone` is settled: nothing is left to read. */
export const SETTLED: ReadonlySet<FateKind> = new Set<FateKind>(['succeeded', 'dead', 'gone']);

/** Ids a `fate` call takes at most: the follow-up asks in batches of this many, so one poll costs
 *  a bounded number of reads whatever the campaign's size. */
export const FATE_BATCH = 100;

export const ZTaskFate = z
  .strictObject({
    /** The id as replayed (the campaign's id for the task). */
    id: z.string(),
    fate: ZFateKind,
    /** The declared state's key where the task waits or runs; null otherwise. */
    state: z.string().nullable(),
    /** Dead: the error's fingerprint (`fp-…`, the dead list's `group`); null when none could be made. */
    fingerprint: z.string().nullable(),
    /** One line in the system's words: the error's summary, the result kept, or why gone/unknown. */
    detail: z.string(),
    /** The id the system gave the replayed work where it differs (QueueFlow's `replay_job_id`); null: the same id. */
    followed: z.string().nullable(),
    /** When the fate happened (died, finished) where the system keeps it; ISO, null when unknown. */
    at: z.string().nullable(),
    /** Dead: the queue its letter is in, where the system says (a campaign's queues, its chart
     *  marks); absent when not known. */
    queue: z.string().optional(),
    /** Dead: the id of its dead letter, where the system gives a letter an id of its own (QueueFlow's
     *  DLQ entry): the id a replay of it takes. Absent: the letter's id is the task's (`id`). */
    letter: z.string().optional(),
  })
  .meta({ id: 'TaskFate' });
export type TaskFate = z.infer<typeof ZTaskFate>;
