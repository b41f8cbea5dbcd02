import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LOOKED_KEY } from '@/lib/client/looked';
import type { DeadGroup } from '@/lib/brokers/schema';
import { mockApi, renderInApp } from '@/tests/support/component';
import { overview } from '@/tests/support/component-fixtures';
import { BrokerCard } from './broker-card';
import { OverviewBoard, RankedSlot } from './overview-board';

const group = (fingerprint: string): DeadGroup => ({
  fingerprint,
  pattern: 'ValueError: <n>',
  excType: 'ValueError',
  frame: null,
  example: { id: 'x', summary: 'ValueError: 1' },
  count: 1,
  tasks: ['t'],
  queues: ['q'],
  newestAt: null,
  oldestAt: null,
});
const groups = (...fps: string[]) => ({ groups: fps.map(group), scope: { grouped: fps.length, complete: true } });

const board = (ids: string[]) => (
  <OverviewBoard brokers={ids}>
    {ids.map((id) => (
      <RankedSlot key={id} brokerId={id}>
        <BrokerCard brokerId={id} name={id} badge="potatoq · SQLite" />
      </RankedSlot>
    ))}
  </OverviewBoard>
);

const slotOrder = (id: string) => (document.querySelector(`[data-broker-slot="${id}"]`) as HTMLElement).style.order;

afterEach(() => window.localStorage.clear());

describe('OverviewBoard', () => {
  it('counts brokers up, slow and down and puts the down one first, the slow one next', async () => {
    mockApi({
      '/api/brokers/ok/queues': { ...overview('ok'), readMs: 12 },
      '/api/brokers/slow/queues': { ...overview('slow'), readMs: 4500 },
      '/api/brokers/down/queues': { status: 503, error: { code: 'BrokerUnavailable', message: 'connection refused' } },
    });
    renderInApp(board(['ok', 'slow', 'down']));
    await waitFor(() => expect(screen.getByTestId('summary-down').dataset.count).toBe('1'));
    expect(screen.getByTestId('summary-up').dataset.count).toBe('1');
    expect(screen.getByTestId('summary-slow').dataset.count).toBe('1');
    expect([slotOrder('down'), slotOrder('slow'), slotOrder('ok')]).toEqual(['0', '1', '2']);
    expect(document.querySelector('[data-broker-slot="down"]')?.getAttribute('data-health')).toBe('down');
  });

  it('says the first look from this browser, then counts fingerprints it had not seen', async () => {
    mockApi({
      '/api/brokers/a/queues': { ...overview('a'), readMs: 1 },
      '/api/brokers/a/dead/groups': groups('fp-old', 'fp-new1', 'fp-new2'),
    });
    const first = renderInApp(board(['a']));
    await waitFor(() => expect(window.localStorage.getItem(LOOKED_KEY)).toContain('fp-new2'));
    expect(screen.getByTestId('summary-fingerprints').textContent).toBe('error fingerprints: first look from this browser');
    first.unmount();

    window.localStorage.setItem(LOOKED_KEY, JSON.stringify({ at: Date.UTC(2026, 0, 2, 3, 4), fingerprints: { a: ['fp-old'] } }));
    renderInApp(board(['a']));
    await waitFor(() => expect(screen.getByTestId('summary-fingerprints').dataset.count).toBe('2'));
    expect(screen.getByTestId('summary-fingerprints').textContent).toBe(
      '2 new error fingerprints since you last looked (2026-01-02 03:04 UTC)',
    );
  });
});
