// A campaign: one replay, edited replay, move or bulk job with the follow-up of what became of
// each task it replayed (lib/campaigns/follow.ts). Its shapes, shared by the store, the API and
// the pages. One zod definition per answer (docs/architecture.md). Client-safe.
import { z } from 'zod';
import { ZFateKind } from '@/lib/brokers/dto-fate';

/** An item's fate, or `pending` before its first look. */
export const ZItemFate = z.union([ZFateKind, z.literal('pending')]);
export type ItemFate = z.infer<typeof ZItemFate>;

/** How the follow-up stands: still looking, every task settled, stopped after FOLLOW_DAYS with
 *  tasks unsettled, or off because the broker tells no fates (`why`). */
export const ZFollowState = z.enum(['following', 'settled', 'stopped', 'off']);
export type FollowState = z.infer<typeof ZFollowState>;

/** How many tasks are in each fate; `dead` split by whether the error is the one they died of before. */
export const ZRollup = z
  .strictObject({
    total: z.number().int(),
    succeeded: z.number().int(),
    /** Died again with the fingerprint they had before the replay. */
    deadSame: z.number().int(),
    /** Died again with another error. */
    deadNew: z.number().int(),
    /** Died again; the error before or now has no fingerprint, so same or new cannot be told. */
    deadUnlinked: z.number().int(),
    waiting: z.number().int(),
    running: z.number().int(),
    gone: z.number().int(),
    unknown: z.number().int(),
    pending: z.number().int(),
  })
  .meta({ id: 'CampaignRollup' });
export type Rollup = z.infer<typeof ZRollup>;

/** A bulk job's campaign: the job, and whether it is still replaying (its tasks join the
 *  campaign batch by batch) or how it stopped, with why when it failed. */
export const ZBulkCampaignJob = z.strictObject({
  id: z.string(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  why: z.string().nullable(),
});
export type BulkCampaignJob = z.infer<typeof ZBulkCampaignJob>;

export const ZCampaignScope = z.strictObject({
  /** The first ids replayed (all of them up to 20); `count` says how many in all. */
  ids: z.array(z.string()),
  /** A bulk job's frozen filter; null for ids picked by hand. */
  filter: z.record(z.string(), z.unknown()).nullable(),
  count: z.number().int(),
  /** A bulk job's campaign: the job (absent for any other action). */
  job: ZBulkCampaignJob.optional(),
  /** A move's campaign: the broker the tasks were moved from (they are followed on `broker`). */
  from: z.string().optional(),
  /** The tasks had not run before the action (waiting tasks moved): nothing died before, so one
   *  that dies is "failed", with no error before to compare. Absent: they were dead letters. */
  firstRun: z.boolean().optional(),
});

export const ZCampaign = z
  .strictObject({
    id: z.string(),
    /** The broker the replayed tasks run on (a move's target). */
    broker: z.string(),
    /** The action that made it: replay, replay-edited, move, move-waiting, bulk-replay, bulk-move,
     *  bulk-move-waiting, replay-again. */
    action: z.string(),
    createdAt: z.string(),
    who: z.string(),
    reason: z.string().nullable(),
    /** The audit entry of the action. */
    auditId: z.string().nullable(),
    /** The campaign whose dead-again tasks this one replays. */
    parent: z.string().nullable(),
    scope: ZCampaignScope,
    follow: z.strictObject({ state: ZFollowState, why: z.string().nullable(), lastAt: z.string().nullable() }),
    rollup: ZRollup,
  })
  .meta({ id: 'Campaign' });
export type Campaign = z.infer<typeof ZCampaign>;

/** A campaign as its page reads it: with what the poll this view drove ran into (null: nothing). */
export const ZCampaignView = ZCampaign.extend({
  lastPoll: z
    .string()
    .nullable()
    .describe("why this view's poll of the follow-up did not look (the broker down, slow); null when it looked or was not due"),
}).meta({ id: 'CampaignView' });
export type CampaignView = z.infer<typeof ZCampaignView>;

export const ZCampaignItem = z
  .strictObject({
    /** The task's id as replayed (a move: its id on the broker it was moved to). */
    id: z.string(),
    /** A moved task's id on the broker it was moved from (`scope.from`); null otherwise. */
    from: z.string().nullable(),
    fate: ZItemFate,
    state: z.string().nullable(),
    /** The error's fingerprint before the replay (the dead list's `group`), null when unknown. */
    before: z.string().nullable(),
    /** Dead again: the fingerprint now. */
    fingerprint: z.string().nullable(),
    /** Dead again: whether the error is the one it died of before; null when that cannot be told. */
    same: z.boolean().nullable(),
    detail: z.string(),
    followed: z.string().nullable(),
    /** Dead: its dead letter's id where the broker gives a letter its own (what "replay the ones
     *  that died again" replays, and its page); null: the id it is followed under. */
    letter: z.string().nullable(),
    at: z.string().nullable(),
    checkedAt: z.string().nullable(),
  })
  .meta({ id: 'CampaignItem' });
export type CampaignItem = z.infer<typeof ZCampaignItem>;

export const ZCampaignList = z.strictObject({ items: z.array(ZCampaign), nextCursor: z.string().nullable() }).meta({ id: 'CampaignList' });
export type CampaignList = z.infer<typeof ZCampaignList>;

export const ZCampaignItems = z
  .strictObject({ items: z.array(ZCampaignItem), nextCursor: z.string().nullable() })
  .meta({ id: 'CampaignItems' });
export type CampaignItems = z.infer<typeof ZCampaignItems>;

/** The drill-down's filter: one fate, `dead-same`/`dead-new` for the split, or all. */
export const ITEM_FILTERS = [
  'all',
  'succeeded',
  'dead',
  'dead-same',
  'dead-new',
  'waiting',
  'running',
  'gone',
  'unknown',
  'pending',
] as const;
export const ZItemQuery = z.object({
  fate: z.enum(ITEM_FILTERS).default('all'),
  cursor: z
    .string()
    .regex(/^\d{1,12}$/, 'cursor: not a cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ItemQuery = z.infer<typeof ZItemQuery>;

export const ZCampaignListQuery = z.object({
  broker: z.string().max(200).optional(),
  /** Campaigns that replayed or moved this task id (a moved task: its id on either broker). */
  task: z.string().max(1000).optional(),
  /** The campaign of this bulk job. */
  job: z
    .string()
    .regex(/^[a-z0-9-]{8,64}$/, 'job: not a bulk job id')
    .optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type CampaignListQuery = z.infer<typeof ZCampaignListQuery>;

/** A campaign as its action records it (the store adds its id, times and state). */
export interface NewCampaign {
  broker: string;
  action: string;
  who: string;
  reason: string | null;
  auditId: string | null;
  parent: string | null;
  filter: Record<string, unknown> | null;
  /** A move: the broker the tasks came from. */
  from?: string;
  /** The tasks had not run before (waiting tasks moved): see ZCampaignScope. */
  firstRun?: boolean;
  /** The queues its tasks were in (its chart marks); null or absent: not known. */
  queues?: readonly string[] | null;
}

/** The `queues` column of a new campaign: its queues as JSON (`["billing","emails"]`), else the
 *  bulk filter's queue, else NULL (not known: marked on the broker's charts, no queue's). */
export function queuesColumn(c: NewCampaign): string | null {
  const qs = c.queues ?? (typeof c.filter?.queue === 'string' && c.filter.queue ? [c.filter.queue] : null);
  return qs && qs.length ? JSON.stringify([...new Set(qs)].sort()) : null;
}

/** A move's words on its scope (nothing for any other action). */
export const moveScope = (c: Pick<NewCampaign, 'from' | 'firstRun'>) => ({
  ...(c.from ? { from: c.from } : {}),
  ...(c.firstRun ? { firstRun: true } : {}),
});

/** A task replayed, with the error fingerprint it died of before (null: unknown); a moved
 *  task's id on the broker it came from (`from`). */
export interface NewItem {
  id: string;
  before: string | null;
  from?: string | null;
}
