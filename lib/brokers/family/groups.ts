import { FAILED, MAX_GROUPS, member, referenced, type FamilyNode, type FamilySource } from './node';
import type { FamilyBlock, FamilyGroup } from './schema';

// The groups, chords and fan-outs of a family's members, and the work its failed members hold
// back: computed from the members found, with the system's counters where it keeps them.

export async function groupsOf(src: FamilySource, known: Map<string, FamilyNode>): Promise<FamilyGroup[]> {
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

export function blocksOf(src: FamilySource, known: Map<string, FamilyNode>): FamilyBlock[] {
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
