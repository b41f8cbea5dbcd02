import { describe, expect, it } from 'vitest';
import { groupPattern, nodeOfMessage, rootPattern } from './family';

describe("potatoq's family reads", () => {
  it("escapes LIKE's wildcards and JSON's quotes in an id", () => {
    // `_` in the field's own name is escaped too: it must match itself only.
    expect(rootPattern('a%b_c\\d')).toBe('%"root\\_id":"a\\%b\\_c\\\\\\\\d"%');
    expect(groupPattern('x"y')).toBe('%"group\\_id":"x\\\\"y"%');
  });

  it('reads canvas ids, the chord callback and the chain a message nests; a foreign payload links nothing', () => {
    const msg = JSON.stringify({
      task: 't',
      id: 'a',
      root_id: 'r',
      parent_id: 'p',
      group_id: 'g',
      group_index: 1,
      chord: { callback: { task: 'cb', options: { task_id: 'c1' } }, size: 3 },
      link: [{ task: 'n', options: { task_id: 'n1', link: [{ task: 'm', options: { task_id: 'n2' } }] } }],
    });
    const n = nodeOfMessage('a', msg, { status: 'dead', state: 'dead', link: 'dead' });
    expect(n).toMatchObject({
      rootId: 'r',
      parentId: 'p',
      groupId: 'g',
      groupIndex: 1,
      chord: { size: 3, callbackId: 'c1', callbackTask: 'cb' },
    });
    expect(n.next).toEqual([{ id: 'n1', task: 'n' }]);
    expect(n.implied?.map((x) => [x.id, x.parentId])).toEqual([
      ['n1', 'a'],
      ['n2', 'n1'],
    ]);
    expect(nodeOfMessage('z', '\u0000not json', { status: 'waiting', state: 'ready', link: 'task' })).toMatchObject({
      rootId: null,
      next: [],
    });
  });
});
