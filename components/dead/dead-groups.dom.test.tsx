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

  it('reads, links and exports the groups of the range shown, as written', async () => {
    const asked: Array<Record<string, string>> = [];
    mockApi({
      [`/api/brokers/${B}/dead/groups`]: (u: URL) => {
        asked.push(Object.fromEntries(u.searchParams));
        return { groups: [deadGroup(FPS[0]!, { count: 2 })], scope: { grouped: 2, complete: true } };
      },
    });
    renderInApp(<DeadGroups brokerId={B} queue="emails" range={{ since: '1h', until: undefined }} />);
    const [row] = await screen.findAllByTestId('dead-group');
    expect(asked[0]).toEqual({ queue: 'emails', since: '1h' });
    expect(query(screen.getAllByTestId('export-csv')[0]!)).toEqual({ queue: 'emails', since: '1h', format: 'csv' });
    expect(query(within(row!).getByTestId('export-jsonl'))).toEqual({ queue: 'emails', group: FPS[0], since: '1h', format: 'jsonl' });
    expect(query(within(row!).getByTestId('dead-group-link'))).toEqual({ queue: 'emails', group: FPS[0], since: '1h' });
  });

  it('says no letter died in the range rather than that there are none', async () => {
    mockApi({ [`/api/brokers/${B}/dead/groups`]: { groups: [], scope: { grouped: 0, complete: true } } });
    renderInApp(<DeadGroups brokerId={B} range={{ until: '2026-12-04T20:00:00Z' }} />);
    expect(await screen.findByText('No dead letters died in this range.')).toBeInTheDocument();
  });
});
