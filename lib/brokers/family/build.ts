import type { FamilyBlock, FamilyGroup, FamilyMember, FamilyStatus, TaskFamily } from './schema';

// One family builder for every system with parent/root/group ids: a system hands over a
// `FamilySource` (its reads, mapped to neutral nodes) and the words for what it cannot see;
// the walk, the bounds and the cycle guard are here once. Every read is bounded: at most
// `limit` members, at most `limit` lookups by id, a parent chain followed at most
// MAX_DEPTH steps and never twice through the same id.

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

export const MAX_DEPTH = 64;
const MAX_GROUPS = 20;

const member = (n: FamilyNode): FamilyMember => ({
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

const FAILED: ReadonlySet<FamilyStatus> = new Set(['failed', 'dead']);

/** The family of task `id`, or null when the store knows no task with that id and none
 *  names it as its root. */
export async function buildFamily(src: FamilySource, id: string, limit: number): Promise<TaskFamily | null> {
  const known = new Map<string, FamilyNode>();
  let lookups = 0;
  let capped = false;
  const lookup = async (x: string, fallback: () => FamilyNode): Promise<FamilyNode> => {
    const have = known.get(x);
    if (have) return have;
    let n: FamilyNode | null = null;
    if (lookups < limit) {
      lookups++;
      n = await src.node(x);
    } else capped = true;
    const out = n ?? fallback();
    known.set(x, out);
    return out;
  };

  const found = await src.node(id);
  lookups++;
  const self0 = found ?? (await asRoot(src, id));
  if (!self0) return null;
  known.set(id, self0);
  const rootId = self0.rootId ?? (self0.parentId === null ? self0.id : null);

  if (rootId !== null) {
    const byRoot = await src.byRoot(rootId, limit);
    if (byRoot) {
      if (byRoot.more) capped = true;
      for (const n of byRoot.nodes) if (!known.has(n.id)) known.set(n.id, n);
    }
  }

  // The parts of every group found so far (a chord's parts each have a root of their own).
  const groupIds = [...new Set([...known.values()].map((n) => n.groupId).filter((g): g is string => g !== null))];
  for (const gid of groupIds.slice(0, MAX_GROUPS)) {
    if (known.size >= limit) break;
    const parts = await src.byGroup(gid, limit);
    if (!parts) continue;
    if (parts.more) capped = true;
    for (const n of parts.nodes) if (!known.has(n.id)) known.set(n.id, n);
  }

  // The parent chain, up to the root: each step once (a cycle stops the walk and is reported).
  const cycle: string[] = [];
  const chain: string[] = [id];
  for (let at = known.get(id)!, depth = 0; at.parentId !== null && depth < MAX_DEPTH; depth++) {
    const pid = at.parentId;
    if (chain.includes(pid)) {
      cycle.push(...chain.slice(chain.indexOf(pid)), pid);
      break;
    }
    chain.push(pid);
    at = await lookup(pid, () => referenced(pid));
  }
  // Where no message names the root (Celery's results keep only `parent_id`), the top of the
  // parent chain is the root, unless the chain looped or was cut at MAX_DEPTH.
  const top = known.get(chain[chain.length - 1]!);
  const rootAt = rootId ?? (cycle.length === 0 && top && top.parentId === null ? top.id : null);
  const root = rootAt !== null ? await lookup(rootAt, () => referenced(rootAt)) : null;

  // Children the system recorded (Celery), breadth first from the root and from this task.
  const seen = new Set<string>();
  const queue = [...(root ? [root.id] : []), id];
  while (queue.length > 0 && known.size < limit) {
    const at = known.get(queue.shift()!);
    if (!at || seen.has(at.id)) continue;
    seen.add(at.id);
    for (const c of at.children ?? []) {
      if (known.size >= limit) {
        capped = true;
        break;
      }
      const child = await lookup(c, () => referenced(c, null, at.id));
      if (child.parentId === null) known.set(c, { ...child, parentId: at.id });
      queue.push(c);
    }
  }

  // Members named by others: chain steps (and the later steps their links describe) and
  // chord callbacks. What the store has wins; the description fills in what it does not.
  const implied = new Map<string, FamilyNode>();
  for (const n of known.values()) for (const i of n.implied ?? []) if (!implied.has(i.id)) implied.set(i.id, i);
  for (const n of [...known.values()]) {
    for (const s of n.next) await lookup(s.id, () => implied.get(s.id) ?? referenced(s.id, s.task, n.id));
    const cb = n.chord?.callbackId;
    if (cb) await lookup(cb, () => referenced(cb, n.chord?.callbackTask ?? null));
  }
  for (const i of implied.values()) {
    if (known.size >= limit) break;
    const n = await lookup(i.id, () => i);
    if (n.parentId === null && i.parentId !== null) known.set(i.id, { ...n, parentId: i.parentId, task: n.task ?? i.task });
  }

  const self = known.get(id)!;
  const all = ordered(known, root?.id ?? null);
  if (all.length > limit) capped = true;
  const childIds = new Set([
    ...all.filter((m) => m.parentId === id).map((m) => m.id),
    ...self.next.map((s) => s.id),
    ...(self.children ?? []),
  ]);
  const groups = await groupsOf(src, known);
  return {
    id,
    self: member(self),
    root: root && root.id !== id ? member(root) : null,
    parent: self.parentId !== null ? member(known.get(self.parentId) ?? referenced(self.parentId)) : null,
    children: [...childIds].map((c) => member(known.get(c) ?? referenced(c, null, id))),
    groups,
    members: all.slice(0, limit).map(member),
    capped,
    blocks: blocksOf(src, known),
    cycle,
    unseen: src.unseen,
    readAt: new Date().toISOString(),
  };
}

/** A finished task whose own message is gone may still be the root others name. */
async function asRoot(src: FamilySource, id: string): Promise<FamilyNode | null> {
  const r = await src.byRoot(id, 1);
  return r && r.nodes.length > 0 ? referenced(id) : null;
}

/** Parents before their children (breadth first from the root), then members whose parent is
 *  not among them; a loop in parent ids is visited once. */
function ordered(known: Map<string, FamilyNode>, rootId: string | null): FamilyNode[] {
  const kids = new Map<string, FamilyNode[]>();
  for (const n of known.values()) {
    if (n.parentId === null || n.parentId === n.id) continue;
    const list = kids.get(n.parentId) ?? [];
    list.push(n);
    kids.set(n.parentId, list);
  }
  // Siblings in their group's order (a fan-out's index, a chord's part number), else as found.
  for (const list of kids.values()) list.sort((a, b) => (a.groupIndex ?? Infinity) - (b.groupIndex ?? Infinity));
  const out: FamilyNode[] = [];
  const done = new Set<string>();
  const visit = (start: FamilyNode) => {
    const q = [start];
    while (q.length) {
      const n = q.shift()!;
      if (done.has(n.id)) continue;
      done.add(n.id);
      out.push(n);
      q.push(...(kids.get(n.id) ?? []));
    }
  };
  const root = rootId !== null ? known.get(rootId) : undefined;
  if (root) visit(root);
  for (const n of known.values()) if (!done.has(n.id) && (n.parentId === null || !known.has(n.parentId))) visit(n);
  for (const n of known.values()) if (!done.has(n.id)) visit(n);
  return out;
}

async function groupsOf(src: FamilySource, known: Map<string, FamilyNode>): Promise<FamilyGroup[]> {
  const byGroup = new Map<string, FamilyNode[]>();
  for (const n of known.values()) {
    if (n.groupId === null) continue;
    const list = byGroup.get(n.groupId) ?? [];
    list.push(n);
    byGroup.set(n.groupId, list);
  }
  const out: FamilyGroup[] = [];
  for (const [gid, parts] of [...byGroup].slice(0, MAX_GROUPS)) {
    const chordPart = parts.find((p) => p.chord !== null);
    parts.sort((a, b) => (a.groupIndex ?? 0) - (b.groupIndex ?? 0));
    const cbId = chordPart?.chord?.callbackId ?? null;
    // Finished parts leave the broker: count the ones still found as a floor, not as "done".
    const failedSeen = parts.filter((p) => FAILED.has(p.status)).length;
    // A chord is known by a part's message or by the counters the system keeps for it.
    const p = await src.chord(gid);
    if (chordPart || p) {
      const cb = cbId ? (known.get(cbId) ?? referenced(cbId, chordPart?.chord?.callbackTask ?? null)) : null;
      out.push({
        id: gid,
        kind: p?.kind ?? 'chord',
        total: chordPart?.chord?.size ?? p?.total ?? null,
        done: p?.done ?? null,
        failed: p?.failed ?? (p ? null : failedSeen || null),
        members: parts.map((x) => x.id),
        callback: cb ? member(cb) : null,
        note:
          p?.note ??
          (p
            ? cbId
              ? null
              : "the chord's callback is named only in its parts' messages, and none is waiting any more"
            : 'no chord counter is stored yet: no part has finished, or its counter expired'),
      });
    } else {
      const done = parts.filter((x) => ['succeeded', 'failed', 'dead', 'revoked'].includes(x.status)).length;
      out.push({
        id: gid,
        kind: 'group',
        total: null,
        done: null,
        failed: failedSeen,
        members: parts.map((x) => x.id),
        callback: null,
        note: `a group without a chord keeps no counter: ${parts.length} part(s) found, ${done} of them finished`,
      });
    }
  }
  return out;
}

function blocksOf(src: FamilySource, known: Map<string, FamilyNode>): FamilyBlock[] {
  const out: FamilyBlock[] = [];
  // A part's own record may not name its chord's callback; another part's message does.
  const callbackOf = new Map<string, string>();
  for (const n of known.values()) if (n.groupId !== null && n.chord?.callbackId) callbackOf.set(n.groupId, n.chord.callbackId);
  for (const n of known.values()) {
    if (!FAILED.has(n.status)) continue;
    const cb = n.chord?.callbackId ?? (n.groupId !== null ? callbackOf.get(n.groupId) : undefined);
    if (cb) out.push({ by: n.id, waiting: member(known.get(cb) ?? referenced(cb)), why: src.words.chordBlocked });
    for (const s of n.next)
      out.push({ by: n.id, waiting: member(known.get(s.id) ?? referenced(s.id, s.task)), why: src.words.chainBlocked });
  }
  return out;
}
