import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FamilyMember, TaskFamily } from '@/lib/brokers/family/schema';
import { renderInApp } from '@/tests/support/component';
import { HOSTILE } from '@/tests/support/component-fixtures';
import { FamilyGroups, FamilyTree } from './family-tree';

const m = (id: string, over: Partial<FamilyMember> = {}): FamilyMember => ({
  id,
  task: 't',
  status: 'waiting',
  state: 'ready',
  link: 'task',
  parentId: null,
  groupId: null,
  groupIndex: null,
  ...over,
});

const family = (members: FamilyMember[], capped = false): TaskFamily => ({
  id: members[0]!.id,
  self: members[0]!,
  root: null,
  parent: null,
  children: [],
  groups: [],
  members,
  capped,
  blocks: [],
  cycle: [],
  unseen: [],
  readAt: '2026-12-04T10:00:00.000Z',
});

describe('the family panel parts', () => {
  it('indents members under their parent, links dead ones to their letter, and shows a hostile id as text', () => {
    renderInApp(
      <FamilyTree
        brokerId="b 1"
        f={family([m('r'), m('c', { parentId: 'r', status: 'dead', link: 'dead' }), m(HOSTILE, { parentId: 'c' })])}
      />,
    );
    const rows = screen.getAllByTestId('family-member');
    expect(rows.map((r) => r.getAttribute('data-id'))).toEqual(['r', 'c', HOSTILE]);
    const items = document.querySelectorAll('[data-testid="family-tree"] li');
    expect([...items].map((li) => (li as HTMLElement).style.paddingLeft)).toEqual(['0rem', '1rem', '2rem']);
    expect(rows[1]!.querySelector('a')!.getAttribute('href')).toBe('/brokers/b%201/dead/c');
    expect(document.querySelector('img')).toBeNull();
  });

  it('says "at least N" for a capped family', () => {
    renderInApp(<FamilyTree brokerId="b" f={family([m('a'), m('b')], true)} />);
    expect(screen.getByText(/All members/).textContent).toContain('at least 2');
  });

  it("shows a chord's parts done/total, — where the system cannot count, and its callback", () => {
    renderInApp(
      <FamilyGroups
        brokerId="b"
        groups={[
          {
            id: 'g1',
            kind: 'chord',
            total: 3,
            done: 3,
            failed: 1,
            members: ['a', 'b', 'c'],
            callback: m('cb', { status: 'failed' }),
            note: null,
          },
          { id: 'g2', kind: 'group', total: null, done: null, failed: 0, members: ['x'], callback: null, note: 'no counter' },
        ]}
      />,
    );
    const progress = screen.getAllByTestId('family-group-progress').map((p) => p.textContent);
    expect(progress).toEqual(['3/3 parts done, 1 failed', '—/— parts done']);
    expect(screen.getByText('no counter')).toBeTruthy();
  });
});
