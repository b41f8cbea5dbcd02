import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerCard } from '@/components/overview/broker-card';
import { PAUSE_KEY } from '@/lib/client/refresh';
import { mockApi, renderInApp } from '@/tests/support/component';
import { overview } from '@/tests/support/component-fixtures';
import { LiveStatusLine } from './live-status';
import { RefreshIndicator } from './refresh-indicator';

afterEach(() => window.localStorage.clear());

const page = (
  <>
    <LiveStatusLine />
    <RefreshIndicator />
    <BrokerCard brokerId="b1" name="b1" badge="potatoq · SQLite" />
  </>
);

describe('LiveStatusLine', () => {
  it('says as of when the data was read, then marks the broker stale with its error while keeping the data', async () => {
    let down = false;
    mockApi({
      '/api/brokers/b1/queues': () =>
        down ? { status: 503, error: { code: 'BrokerUnavailable', message: 'connection refused' } } : overview('b1'),
    });
    const before = Date.now();
    const { client } = renderInApp(page);
    const asOf = await screen.findByTestId('as-of');
    const at = Date.parse(screen.getByTestId('live-status').dataset.asOf!);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(asOf.textContent).toMatch(/^as of \d\d:\d\d:\d\d UTC · /);
    expect(screen.queryByTestId('stale-mark')).toBeNull();

    down = true;
    await client.refetchQueries({ queryKey: ['broker', 'b1', 'overview'] });
    const mark = await screen.findByTestId('stale-mark');
    expect(mark.textContent).toMatch(/^b1: stale since \d\d:\d\d:\d\d UTC: connection refused$/);
    expect(mark.title).toBe('BrokerUnavailable: connection refused');
    // The last good data stays on the card, marked.
    expect(document.querySelector('[data-broker="b1"]')?.getAttribute('data-state')).toBe('ok');
    expect(screen.getByTestId('card-stale').textContent).toMatch(/^Stale: showing the last data read, as of \d\d:\d\d:\d\d UTC\.$/);

    down = false;
    await client.refetchQueries({ queryKey: ['broker', 'b1', 'overview'] });
    await waitFor(() => expect(screen.queryByTestId('stale-mark')).toBeNull());
  });

  it('keeps a pause in this browser, so a new page starts paused', async () => {
    mockApi({ '/api/brokers/b1/queues': overview('b1') });
    const first = renderInApp(page);
    await userEvent.click(screen.getByTestId('refresh-indicator'));
    expect(screen.getByTestId('refresh-state').textContent).toBe('Paused');
    expect(window.localStorage.getItem(PAUSE_KEY)).toBe('1');
    first.unmount();

    renderInApp(page);
    expect(screen.getByTestId('refresh-state').textContent).toBe('Paused');
    await screen.findByTestId('as-of');
    expect(screen.getByTestId('as-of').textContent).toMatch(/^paused, as of /);
    await userEvent.click(screen.getByTestId('refresh-indicator'));
    expect(window.localStorage.getItem(PAUSE_KEY)).toBeNull();
    expect(screen.getByTestId('refresh-state').textContent).toMatch(/^Live/);
  });
});
