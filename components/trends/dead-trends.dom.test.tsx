import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderInApp } from '@/tests/support/component';
import { DeadTrends } from './panels';

// The canvas (uPlot, loaded lazily) is not what is tested here: the words around it are.
vi.mock('next/dynamic', () => ({ default: () => () => null }));

const B = 'b1';
const trend = (over: Record<string, unknown> = {}) => ({
  range: 'day',
  from: '2026-12-04T02:00:00.000Z',
  to: '2026-12-04T08:30:00.000Z',
  bucketSeconds: 900,
  counts: new Array<number>(26).fill(1),
  recorded: new Array<number>(26).fill(0),
  campaigns: [],
  total: 26,
  undated: 0,
  scannedNewest: null,
  ...over,
});

describe('DeadTrends', () => {
  it("follows the list's range as written: asks for it, says it instead of the presets, and the window it got", async () => {
    const asked: Array<Record<string, string>> = [];
    mockApi({
      [`/api/brokers/${B}/trends/dead`]: (u: URL) => {
        asked.push(Object.fromEntries(u.searchParams));
        return trend();
      },
    });
    renderInApp(<DeadTrends brokerId={B} queue="emails" span={{ since: '6h', until: undefined }} />);
    expect(await screen.findByTestId('trend-dead')).toHaveTextContent('per 15 minutes');
    expect(asked[0]).toEqual({ range: 'day', queue: 'emails', since: '6h' });
    expect(screen.getByTestId('dead-trends-range').textContent).toBe("Over the list's range: died in the last 6h");
    expect(screen.queryByTestId('trend-range-hour')).toBeNull();
    expect(screen.getByTestId('trend-dead')).toHaveTextContent('From 2026-12-04 02:00 to 2026-12-04 08:30 UTC, as of this read.');
  });

  it('says when the range begins earlier than a chart reaches back, and offers the presets without a range', async () => {
    mockApi({ [`/api/brokers/${B}/trends/dead`]: trend({ range: 'week', bucketSeconds: 3600, clamped: true }) });
    const { rerender } = renderInApp(<DeadTrends brokerId={B} span={{ since: '30d' }} />);
    expect(await screen.findByTestId('trend-dead')).toHaveTextContent('the chart shows its last week');
    rerender(<DeadTrends brokerId={B} />);
    expect(await screen.findByTestId('trend-range-hour')).toBeInTheDocument();
    expect(screen.queryByTestId('dead-trends-range')).toBeNull();
  });
});
