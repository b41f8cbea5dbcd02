import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Diagnosis, StuckFlag } from '@/lib/brokers/dto';
import { mockApi, renderInApp } from '@/tests/support/component';
import { StuckPanel } from './stuck-flags';

const flag = (i: number): StuckFlag => ({
  check: 'no-consumer',
  queue: `q${i}`,
  ids: [],
  count: 3,
  cause: `queue q${i}: 3 tasks wait and no worker consumes it`,
  can: 'move them',
  cannot: 'start a worker',
  link: { page: 'queue', queue: `q${i}`, state: 'waiting' },
  seconds: null,
});
const answer = (n: number, omitted?: number): Diagnosis => ({
  brokerId: 'b',
  flags: Array.from({ length: n }, (_, i) => flag(i)),
  ...(omitted ? { flagsOmitted: omitted } : {}),
  unknown: [],
  notes: [],
  overdueSeconds: 120,
  readAt: '2026-12-05T00:00:00Z',
});

describe('StuckPanel', () => {
  it('lists the first findings of a card, says how many in all, and shows the rest on demand', async () => {
    mockApi({ '/api/brokers/b/diagnosis': answer(100, 4900) });
    renderInApp(<StuckPanel brokerId="b" limit={5} />);
    expect((await screen.findByTestId('stuck-title')).textContent).toBe('Stuck work: 5000 findings');
    expect(screen.getAllByTestId('stuck-flag')).toHaveLength(5);
    const more = screen.getByTestId('stuck-more');
    expect(more.textContent).toContain('Show 95 more findings');
    expect(more.textContent).toContain('4900 more not listed here (the first 100 are');
    fireEvent.click(screen.getByRole('button', { name: 'Show 95 more findings' }));
    expect(screen.getAllByTestId('stuck-flag')).toHaveLength(100);
    expect(screen.getByTestId('stuck-more').textContent).not.toContain('Show');
  });

  it('lists every finding on the broker page and offers nothing more when all are there', async () => {
    mockApi({ '/api/brokers/b/diagnosis': answer(7) });
    renderInApp(<StuckPanel brokerId="b" />);
    expect((await screen.findByTestId('stuck-title')).textContent).toBe('Stuck work: 7 findings');
    expect(screen.getAllByTestId('stuck-flag')).toHaveLength(7);
    expect(screen.queryByTestId('stuck-more')).toBeNull();
  });
});
