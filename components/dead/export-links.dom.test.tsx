import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExportLinks } from './export-links';

describe('ExportLinks', () => {
  it("links both formats to the export of the list's own filter, empty fields left out", () => {
    render(<ExportLinks brokerId="b 1" filters={{ queue: 'emails', task: '', group: 'fp-0123456789abcdef', q: 'card & co' }} />);
    const csv = new URL((screen.getByTestId('export-csv') as HTMLAnchorElement).href);
    expect(csv.pathname).toBe('/api/brokers/b%201/dead/export');
    expect(Object.fromEntries(csv.searchParams)).toEqual({ queue: 'emails', group: 'fp-0123456789abcdef', q: 'card & co', format: 'csv' });
    const jsonl = new URL((screen.getByTestId('export-jsonl') as HTMLAnchorElement).href);
    expect(jsonl.searchParams.get('format')).toBe('jsonl');
    expect(screen.getByTestId('export-links').title).toMatch(/up to 10,000/);
  });
});
