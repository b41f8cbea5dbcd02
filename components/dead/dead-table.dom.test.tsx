import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import * as brokerActions from '@/lib/actions/broker-actions';
import type { DeadGroups } from '@/lib/brokers/schema';
import { mockApi, renderInApp } from '@/tests/support/component';
import { HOSTILE, actionResult, deadGroup, deadLetter, overview, page } from '@/tests/support/component-fixtures';
import { DeadTable } from './dead-table';

const actions = vi.mocked(brokerActions);
const B = 'b1';
const DISCARD_OFF = 'RabbitMQ 3.10: browsing the DLQ would delete its messages';
const FP = 'fp-0123456789abcdef';

function groups(count: number, complete: boolean): DeadGroups {
  return {
    groups: [deadGroup(FP, { count })],
    scope: complete ? { grouped: count, complete } : { grouped: count, complete, note: 'Grouped the newest 10,000 dead letters.' },
  };
}

function routes(opts: { groups?: DeadGroups; off?: Record<string, string> } = {}) {
  const letters = [deadLetter('dl-1'), deadLetter('dl-2', { queue: 'reports', task: 'app.tasks.build_report' }), deadLetter('dl-3')];
  return mockApi({
    [`/api/brokers/${B}/queues`]: overview(B, { off: { discard: DISCARD_OFF, ...opts.off } }),
    [`/api/brokers/${B}/dead`]: (url: URL) => (url.searchParams.get('cursor') === 'c2' ? page([deadLetter('dl-4')]) : page(letters, 'c2')),
    [`/api/brokers/${B}/dead/groups`]: opts.groups ?? groups(3, true),
  });
}

const selected = () => screen.getByTestId('selected-count').textContent;
const box = (id: string) => screen.getByRole('checkbox', { name: `Select ${id}` });

describe('DeadTable', () => {
  it('counts the selection and offers the actions for it, with why one is off', async () => {
    routes();
    renderInApp(<DeadTable brokerId={B} filters={{}} />);
    await screen.findByRole('checkbox', { name: 'Select dl-3' });
    expect(selected()).toBe('0 selected');
    const replay = screen.getByTestId('action-replay') as HTMLButtonElement;
    // Nothing selected: nothing to replay.
    expect(replay.disabled).toBe(true);

    await userEvent.click(box('dl-1'));
    await userEvent.click(box('dl-2'));
    expect(selected()).toBe('2 selected');
    expect(replay.disabled).toBe(false);
    expect(replay.textContent).toBe('Replay 2');
    const discard = screen.getByTestId('action-discard') as HTMLButtonElement;
    expect(discard.disabled).toBe(true);
    expect(discard.title).toBe(DISCARD_OFF);
    // The "all matching" discard is off for the same reason.
    const discardAll = screen.getByRole('button', { name: 'Discard all matching…' }) as HTMLButtonElement;
    expect(discardAll.disabled).toBe(true);
    expect(discardAll.title).toBe(DISCARD_OFF);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    expect(selected()).toBe('3 selected');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    expect(selected()).toBe('0 selected');
  });

  it('names every queue of the selection in the dialog, and clears the selection once replayed', async () => {
    routes();
    actions.replayDeadAction.mockResolvedValue({ ok: true, data: actionResult('replay', B, ['dl-1', 'dl-2']) });
    renderInApp(<DeadTable brokerId={B} filters={{}} />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select dl-1' }));
    await userEvent.click(box('dl-2'));
    await userEvent.click(screen.getByRole('button', { name: 'Replay 2' }));

    const dialog = await screen.findByRole('dialog', { name: 'Replay 2 dead letters?' });
    expect(within(dialog).getByTestId('confirm-summary').textContent).toBe('Replay 2 dead letters on broker b1 in queues emails, reports.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay 2 dead letters' }));
    expect(actions.replayDeadAction).toHaveBeenCalledWith(B, ['dl-1', 'dl-2'], undefined, 'emails, reports');
    await within(dialog).findByTestId('action-outcome');
    expect(selected()).toBe('0 selected');
  });

  it('states the size of the whole group, not of the page, on the "all" buttons', async () => {
    routes({ groups: groups(412, true) });
    renderInApp(<DeadTable brokerId={B} filters={{ group: FP }} />);
    const count = await screen.findByTestId('group-count');
    expect(count.textContent).toBe('This group, every page: 412 letters');
    expect(screen.getByRole('button', { name: 'Replay all 412 of this group…' })).toBeTruthy();
    expect(screen.getByTestId('shown-count').textContent).toBe('3 shown of 412');
  });

  it('says "at least" when the groups count only part of the letters', async () => {
    routes({ groups: groups(10_000, false) });
    renderInApp(<DeadTable brokerId={B} filters={{ group: FP }} />);
    const count = await screen.findByTestId('group-count');
    expect(count.textContent).toBe('This group, every page: at least 10,000 letters (the groups count only part of the dead letters)');
    // No exact size to promise: the button does not name one.
    expect(screen.getByRole('button', { name: 'Replay all of this group…' })).toBeTruthy();
  });

  it('loads the next page on demand and selects only what is shown', async () => {
    routes();
    renderInApp(<DeadTable brokerId={B} filters={{}} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByRole('checkbox', { name: 'Select dl-4' });
    expect(screen.getAllByTestId('dead-row').map((r) => r.dataset.id)).toEqual(['dl-1', 'dl-2', 'dl-3', 'dl-4']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    expect(selected()).toBe('4 selected');
  });

  it('renders a hostile letter as text: no markup, no link but its own', async () => {
    const evil = deadLetter(HOSTILE, { task: HOSTILE, queue: HOSTILE, summary: HOSTILE, cause: '<b>non_retryable</b>\u202Ex' });
    mockApi({
      [`/api/brokers/${B}/queues`]: overview(B),
      [`/api/brokers/${B}/dead`]: page([evil]),
      [`/api/brokers/${B}/dead/groups`]: groups(1, true),
    });
    renderInApp(<DeadTable brokerId={B} filters={{}} />);
    const row = await screen.findByTestId('dead-row');
    expect(row.querySelector('img, script, iframe, b')).toBeNull();
    expect(within(row).getByTestId('dead-cause').textContent).toBe('<b>non_retryable</b>⟨U+202E⟩x');
    const links = [...row.querySelectorAll('a')];
    // The only link is the console's own, to the letter's page, with the id escaped into the path.
    expect(links.map((a) => a.getAttribute('href'))).toEqual([`/brokers/${B}/dead/${encodeURIComponent(HOSTILE)}`]);
    expect(row.textContent).toContain('<img src=x');
    expect(row.textContent).toContain('⟨U+202E⟩');
    expect(row.textContent).not.toContain('\u202E');
    await waitFor(() => expect((window as { __pwned?: number }).__pwned).toBeUndefined());
  });
});
