import { describe, expect, it } from 'vitest';
import { buildFamily, referenced, type FamilyNode, type FamilySource } from './build';
import { ZTaskFamily } from './schema';

// An in-memory store: nodes by id, searched by root and group as a system's store would.
function source(
  nodes: FamilyNode[],
  opts: { chord?: Record<string, { done: number; failed: number }> } = {},
): FamilySource & { calls: number } {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const src = {
    calls: 0,
    async node(id: string) {
      src.calls++;
      return byId.get(id) ?? null;
    },
    async byRoot(rootId: string, cap: number) {
      const all = nodes.filter((n) => n.rootId === rootId);
      return { nodes: all.slice(0, cap), more: all.length > cap };
    },
    async byGroup(groupId: string, cap: number) {
      const all = nodes.filter((n) => n.groupId === groupId);
      return { nodes: all.slice(0, cap), more: all.length > cap };
    },
    async chord(groupId: string) {
      return opts.chord?.[groupId] ?? null;
    },
    words: { chordBlocked: 'the callback waits', chainBlocked: 'the chain stops' },
    unseen: ['finished tasks leave'],
  };
  return src;
}
const node = (id: string, over: Partial<FamilyNode> = {}): FamilyNode => ({
  ...referenced(id),
  status: 'waiting',
  state: 'ready',
  link: 'task',
  ...over,
});

describe('buildFamily', () => {
  it('is null for an id no task has and none names as its root', async () => {
    expect(await buildFamily(source([node('a')]), 'nope', 50)).toBeNull();
  });

  it('reaches the whole tree from any member: root, parent, children, in parent-first order', async () => {
    const nodes = [
      node('r', { rootId: 'r' }),
      node('c1', { rootId: 'r', parentId: 'r' }),
      node('c2', { rootId: 'r', parentId: 'r' }),
      node('g1', { rootId: 'r', parentId: 'c1' }),
    ];
    for (const asked of ['r', 'c1', 'g1']) {
      const f = (await buildFamily(source(nodes), asked, 50))!;
      expect(ZTaskFamily.parse(f)).toEqual(f);
      expect(f.members.map((m) => m.id)).toEqual(['r', 'c1', 'c2', 'g1']);
      expect(f.root?.id ?? f.self.id).toBe('r');
    }
    const f = (await buildFamily(source(nodes), 'c1', 50))!;
    expect(f.parent?.id).toBe('r');
    expect(f.children.map((c) => c.id)).toEqual(['g1']);
  });

  it('stops at a cycle in parent ids, names it, and still answers', async () => {
    const nodes = [
      node('a', { parentId: 'b', rootId: 'x' }),
      node('b', { parentId: 'c', rootId: 'x' }),
      node('c', { parentId: 'a', rootId: 'x' }),
    ];
    const f = (await buildFamily(source(nodes), 'a', 50))!;
    expect(f.cycle).toEqual(['a', 'b', 'c', 'a']);
    expect(f.members.map((m) => m.id).sort()).toEqual(['a', 'b', 'c', 'x']);
  });

  it('a task that is its own parent is a cycle of one', async () => {
    const f = (await buildFamily(source([node('a', { parentId: 'a', rootId: 'a' })]), 'a', 50))!;
    expect(f.cycle).toEqual(['a', 'a']);
  });

  it('caps a family of thousands at the limit and says there are more, with bounded lookups', async () => {
    const nodes = [node('r', { rootId: 'r' }), ...Array.from({ length: 5000 }, (_, i) => node(`k${i}`, { rootId: 'r', parentId: 'r' }))];
    const src = source(nodes);
    const f = (await buildFamily(src, 'k4999', 200))!;
    expect(f.members).toHaveLength(200);
    expect(f.capped).toBe(true);
    expect(src.calls).toBeLessThanOrEqual(201);
  });

  it('follows recorded children breadth first, bounded, and a child recorded twice once', async () => {
    const nodes = [
      node('r', { children: ['a', 'b', 'a'] }),
      node('a', { children: ['r'] }), // a loop through recorded children
      node('b'),
    ];
    const f = (await buildFamily(source(nodes), 'r', 50))!;
    expect(f.members.map((m) => m.id)).toEqual(['r', 'a', 'b']);
    expect(f.children.map((c) => c.id).sort()).toEqual(['a', 'b']);
  });

  it('counts a chord, names its callback, and what a failed part blocks', async () => {
    const chord = { size: 3, callbackId: 'cb', callbackTask: 'collect' };
    const nodes = [
      node('p0', { rootId: 'p0', groupId: 'g', groupIndex: 0, chord }),
      node('p1', { rootId: 'p1', groupId: 'g', groupIndex: 1, chord, status: 'dead', link: 'dead' }),
      node('p2', { rootId: 'p2', groupId: 'g', groupIndex: 2, chord, status: 'running' }),
    ];
    const f = (await buildFamily(source(nodes, { chord: { g: { done: 2, failed: 1 } } }), 'p0', 50))!;
    expect(f.groups).toEqual([
      expect.objectContaining({ id: 'g', kind: 'chord', total: 3, done: 2, failed: 1, members: ['p0', 'p1', 'p2'] }),
    ]);
    expect(f.groups[0]!.callback).toMatchObject({ id: 'cb', task: 'collect', status: 'unknown' });
    expect(f.blocks).toEqual([expect.objectContaining({ by: 'p1', why: 'the callback waits' })]);
    expect(f.blocks[0]!.waiting.id).toBe('cb');
  });

  it('shows a chain step the store no longer has from the links that describe it', async () => {
    const nodes = [
      node('s1', {
        rootId: 's1',
        status: 'dead',
        next: [{ id: 's2', task: 't' }],
        implied: [referenced('s2', 't', 's1'), referenced('s3', 't', 's2')],
      }),
    ];
    const f = (await buildFamily(source(nodes), 's1', 50))!;
    expect(f.members.map((m) => [m.id, m.parentId])).toEqual([
      ['s1', null],
      ['s2', 's1'],
      ['s3', 's2'],
    ]);
    expect(f.blocks.map((b) => b.waiting.id)).toEqual(['s2']);
  });
});
