import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExportLinks } from './export-links';

describe('ExportLinks', () => {
  it("links both formats to the export of the list's own filter, empty fields left out", () => {
    render(
      <ExportLinks
        brokerId="b 1"
        list="dead"
        noun="letters"
        filters={{ queue: 'emails', task: '', group: 'fp-0123456789abcdef', q: 'card & co' }}
      />,
    );
    const csv = new URL((screen.getByTestId('export-csv') as HTMLAnchorElement).href);
    expect(csv.pathname).toBe('/api/brokers/b%201/dead/export');
    expect(Object.fromEntries(csv.searchParams)).toEqual({ queue: 'emails', group: 'fp-0123456789abcdef', q: 'card & co', format: 'csv' });
    const jsonl = new URL((screen.getByTestId('export-jsonl') as HTMLAnchorElement).href);
    expect(jsonl.searchParams.get('format')).toBe('jsonl');
    expect(screen.getByTestId('export-links').title).toMatch(/letters matching this filter, up to 10,000/);
  });

  it('links a task list to its state and a results list to its status', () => {
    const { unmount } = render(<ExportLinks brokerId="b" list="tasks" noun="jobs" filters={{ state: 'scheduled', queue: 'q' }} />);
    const tasks = new URL((screen.getByTestId('export-jsonl') as HTMLAnchorElement).href);
    expect(tasks.pathname).toBe('/api/brokers/b/tasks/export');
    expect(Object.fromEntries(tasks.searchParams)).toEqual({ state: 'scheduled', queue: 'q', format: 'jsonl' });
    unmount();
    render(<ExportLinks brokerId="b" list="results" noun="results" filters={{ status: undefined }} />);
    const results = new URL((screen.getByTestId('export-csv') as HTMLAnchorElement).href);
    expect(results.pathname).toBe('/api/brokers/b/results/export');
    expect(Object.fromEntries(results.searchParams)).toEqual({ format: 'csv' });
  });

  it('links the workers, workflow runs and schedules lists to their own exports', () => {
    for (const [list, filters, query] of [
      ['workers', {}, { format: 'csv' }],
      ['workflows', { status: 'failed' }, { status: 'failed', format: 'csv' }],
      ['schedules', {}, { format: 'csv' }],
    ] as const) {
      const { unmount } = render(<ExportLinks brokerId="b" list={list} noun={list} filters={filters} />);
      const csv = new URL((screen.getByTestId('export-csv') as HTMLAnchorElement).href);
      expect(csv.pathname).toBe(`/api/brokers/b/${list}/export`);
      expect(Object.fromEntries(csv.searchParams)).toEqual(query);
      expect(screen.getByTestId('export-links')).toHaveTextContent(/^Export/);
      unmount();
    }
  });
});
