import { blocksOf, groupsOf } from './groups';
import { MAX_GROUPS, member, referenced, type FamilyNode, type FamilySource } from './node';
import type { TaskFamily } from './schema';

export { referenced, type ChordProgress, type FamilyNode, type FamilySource } from './node';

export const MAX_DEPTH = 64;

// One family builder for every system with parent, root or group ids: a system hands over a
// `FamilySource` (its reads, mapped to neutral nodes) and the words for what it cannot see;
// the walk, the bounds and the cycle guard are here once. Every read is bounded: at most
// `limit` members, at most `limit` lookups by id, a parent chain followed at most
// MAX_DEPTH steps and never twice through the same id.

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
