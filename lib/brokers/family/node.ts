import type { FamilyMember, FamilyStatus } from './schema';

// The nodes a system hands the family builder, and the source it reads them from: the leaf
// both the builder (build.ts) and its group reckoning (groups.ts) import.

/** One task as a system's messages or results describe it. */
export interface FamilyNode {
  id: string;
  task: string | null;
  status: FamilyStatus;
  state: string | null;
  link: 'task' | 'dead' | null;
  rootId: string | null;
  parentId: string | null;
  groupId: string | null;
  groupIndex: number | null;
  /** A chord's part: the chord's size and its callback (what waits for every part). */
  chord: { size: number | null; callbackId: string | null; callbackTask: string | null } | null;
  /** What it starts once it succeeds (a chain's next step), where the ids are fixed. */
  next: { id: string; task: string | null }[];
  /** Children the system itself recorded (Celery's `children` in a stored result). */
  children?: string[];
  /** Tasks its message describes before they exist (a chain's later steps inside its links):
   *  used for an id the store no longer (or not yet) has. */
  implied?: FamilyNode[];
}

/** A chord's progress as the system counts it; null counts: not known (`note` says why). */
export interface ChordProgress {
  done: number | null;
  failed: number | null;
  /** The chord's size where the system keeps it (else the parts' messages say). */
  total?: number | null;
  /** `fan-out`: a join the system names so (its parent waits); absent: a chord. */
  kind?: 'chord' | 'fan-out';
  note?: string;
}

export interface FamilySource {
  /** One task by id (its message waiting, running or dead, or its stored result); null: not here. */
  node(id: string): Promise<FamilyNode | null>;
  /** Tasks whose root is `rootId`, at most `cap` (`more`: there are others). Null where this
   *  store cannot search by root (then only links are followed; `unseen` says so). */
  byRoot(rootId: string, cap: number): Promise<{ nodes: FamilyNode[]; more: boolean } | null>;
  /** Tasks of group `groupId` (a group's parts need not share a root), at most `cap`. Null
   *  where this store cannot search by group. */
  byGroup(groupId: string, cap: number): Promise<{ nodes: FamilyNode[]; more: boolean } | null>;
  /** A chord's counters; null: none stored (not started, expired, or not kept here). */
  chord(groupId: string): Promise<ChordProgress | null>;
  words: {
    /** What a failed part does to its chord's callback, and what replaying the part does. */
    chordBlocked: string;
    /** What a failed task does to the rest of its chain. */
    chainBlocked: string;
  };
  /** What this store does not let the console see, in the system's words. */
  unseen: string[];
}

export const MAX_GROUPS = 20;

export const member = (n: FamilyNode): FamilyMember => ({
  id: n.id,
  task: n.task,
  status: n.status,
  state: n.state,
  link: n.link,
  parentId: n.parentId,
  groupId: n.groupId,
  groupIndex: n.groupIndex,
});

/** A member known only because another one names it (a callback, a parent, a chain step). */
export const referenced = (id: string, task: string | null = null, parentId: string | null = null): FamilyNode => ({
  id,
  task,
  status: 'unknown',
  state: null,
  link: null,
  rootId: null,
  parentId,
  groupId: null,
  groupIndex: null,
  chord: null,
  next: [],
});

export const FAILED: ReadonlySet<FamilyStatus> = new Set(['failed', 'dead']);
