import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderInApp } from '@/tests/support/component';
import { deadGroup } from '@/tests/support/component-fixtures';
import { DeadGroups } from './dead-groups';

const B = 'b1';
const FPS = ['fp-0123456789abcdef', 'fp-fedcba9876543210'];
const query = (a: HTMLElement) => Object.fromEntries(new URL((a as HTMLAnchorElement).href).searchParams);

describe('DeadGroups exports', () => {
  it('exports the groups of the queue shown, and from each row exactly that group’s letters', async () => {
    mockApi({
      [`/api/brokers/${B}/dead/groups`]: {
        groups: FPS.map((fp, i) => deadGroup(fp, { count: 3 - i })),
        scope: { grouped: 5, complete: true },
      },
    });
    renderInApp(<DeadGroups brokerId={B} queue="emails" />);
    const rows = await screen.findAllByTestId('dead-group');
    const all = screen.getAllByTestId('export-csv')[0]!;
    expect(new URL((all as HTMLAnchorElement).href).pathname).toBe(`/api/brokers/${B}/dead/groups/export`);
    expect(query(all)).toEqual({ queue: 'emails', format: 'csv' });
    rows.forEach((row, i) => {
      const links = within(row).getByTestId('export-links');
      expect(links).toHaveTextContent(/^Export its letters/);
      expect(links.title).toMatch(/letters of this group/);
      const jsonl = within(row).getByTestId('export-jsonl');
      expect(new URL((jsonl as HTMLAnchorElement).href).pathname).toBe(`/api/brokers/${B}/dead/export`);
      expect(query(jsonl)).toEqual({ queue: 'emails', group: FPS[i], format: 'jsonl' });
    });
  });
});
