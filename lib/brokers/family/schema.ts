// The task family: the tasks one task belongs with (its workflow's root, its parent, its
// children, the group or chord it is part of) and the work a failed member blocks. Every
// system that has such links declares capability `family` and maps them here; what it cannot
// see is said in `unseen`, never shown as "none". Client-safe: no server imports.
import { z } from 'zod';

/** Where a member stands, in every system's words; `state` keeps the system's own name. */
export const FAMILY_STATUSES = ['waiting', 'running', 'succeeded', 'failed', 'dead', 'revoked', 'unknown'] as const;
export const ZFamilyStatus = z.enum(FAMILY_STATUSES);
export type FamilyStatus = z.infer<typeof ZFamilyStatus>;

/** The page a member opens on: a waiting/running task, a dead letter, or none (known only by
 *  reference, or finished: the task page shows its stored result). */
export const ZFamilyLink = z.enum(['task', 'dead']).nullable();

export const ZFamilyMember = z.object({
  id: z.string(),
  /** The task's name where the system says it; null when only the id is known. */
  task: z.string().nullable(),
  status: ZFamilyStatus,
  /** The system's own word for the state (`ready`, `FAILURE`, `dead`), or null. */
  state: z.string().nullable(),
  link: ZFamilyLink,
  /** The member that sent it (null: a root, or not known). */
  parentId: z.string().nullable(),
  /** The group or chord it is a part of, and its place there. */
  groupId: z.string().nullable(),
  groupIndex: z.number().int().nullable(),
});
export type FamilyMember = z.infer<typeof ZFamilyMember>;

/** A group (parts run in parallel) or a chord (a group whose callback runs once every part is
 *  done). Counts the system cannot give are null (shown as "—", with `note`). */
export const ZFamilyGroup = z.object({
  id: z.string(),
  /** `fan-out`: sub-jobs whose parent waits for them (the parent is the `callback`). */
  kind: z.enum(['group', 'chord', 'fan-out']),
  /** Parts in the group, as the messages say (the chord's size); null: not known. */
  total: z.number().int().min(0).nullable(),
  /** Parts finished (succeeded or failed), as the system counts them; null: not known. */
  done: z.number().int().min(0).nullable(),
  /** Finished parts that failed; null: not known. */
  failed: z.number().int().min(0).nullable(),
  /** The parts the console found (at most a page of them). */
  members: z.array(z.string()),
  /** The chord's callback (what waits for every part), when known. */
  callback: ZFamilyMember.nullable(),
  /** Why a count is unknown or what the system does with a failed part. */
  note: z.string().nullable(),
});
export type FamilyGroup = z.infer<typeof ZFamilyGroup>;

/** Work a failed member holds back: a chord callback waiting on it, the rest of a chain. */
export const ZFamilyBlock = z.object({
  /** The failed member. */
  by: z.string(),
  /** The member that waits (or will never run). */
  waiting: ZFamilyMember,
  /** What happens to it and what a replay of the failed member does, in the system's terms. */
  why: z.string(),
});
export type FamilyBlock = z.infer<typeof ZFamilyBlock>;

export const ZTaskFamily = z.object({
  /** The member the family was asked for. */
  id: z.string(),
  self: ZFamilyMember,
  root: ZFamilyMember.nullable(),
  parent: ZFamilyMember.nullable(),
  children: z.array(ZFamilyMember),
  groups: z.array(ZFamilyGroup),
  /** Every member found (the root's whole tree, as far as it can be seen), parents before
   *  children, at most `limit`. */
  members: z.array(ZFamilyMember),
  /** More members exist than listed: the family has at least `members.length` (+ the ones
   *  only referenced). */
  capped: z.boolean(),
  blocks: z.array(ZFamilyBlock),
  /** A parent chain that loops back on itself (a hostile or corrupt message): the ids of the
   *  loop, which the console stopped following. Empty: none. */
  cycle: z.array(z.string()),
  /** What this system, or this broker's configuration, does not let the console see. */
  unseen: z.array(z.string()),
  readAt: z.string(),
});
export type TaskFamily = z.infer<typeof ZTaskFamily>;

/** At most this many members per family read; the page says "at least N" beyond. */
export const FAMILY_LIMIT_MAX = 500;
export const FAMILY_LIMIT_DEFAULT = 200;
export const ZFamilyQuery = z.object({
  limit: z.coerce.number().int().min(1).max(FAMILY_LIMIT_MAX).default(FAMILY_LIMIT_DEFAULT),
});
export type FamilyQuery = z.infer<typeof ZFamilyQuery>;

/** Deleting a workflow with its whole subtree (where the adapter declares
 *  `model.actions.deleteFamily`): typed confirmation, the root's id typed again. */
export const ZDeleteFamilyRequest = z
  .object({
    id: z.string().trim().min(1, 'id is required').max(1000, 'id longer than 1,000 characters'),
    confirm: z.string({ error: "type the workflow's id to confirm" }),
  })
  .refine((r) => r.confirm.trim() === r.id, { message: "type the workflow's exact id to confirm", path: ['confirm'] });
export type DeleteFamilyRequest = z.infer<typeof ZDeleteFamilyRequest>;
