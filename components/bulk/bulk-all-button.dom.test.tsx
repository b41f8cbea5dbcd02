import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import * as bulkActions from '@/lib/bulk/actions';
import type { BulkJobView } from '@/lib/bulk/schema';
import { mockApi, renderInApp } from '@/tests/support/component';
import { HOSTILE, bulkJob, overview } from '@/tests/support/component-fixtures';
import { BulkAllButton } from './bulk-all-button';

// The server actions (spies: tests/support/dom-setup.ts) answer as the gate would.
const actions = vi.mocked(bulkActions);

const ok = (data: BulkJobView) => ({ ok: true as const, data });
const B = 'b1';

/** The GET routes: the job's poll answers whatever `job()` holds then; `list` is the broker's jobs. */
function routes(job: () => BulkJobView, list: BulkJobView[] = []) {
  return mockApi({
    [`/api/brokers/${B}/queues`]: overview(B),
    [`/api/brokers/${B}/bulk`]: list,
    [`/api/brokers/${B}/bulk/bulk-1`]: () => job(),
  });
}

describe('BulkAllButton', () => {
  it('says what it will do and to how many, and starts only once a reason is given', async () => {
    let job = bulkJob({ state: 'queued', expectedCount: null });
    actions.createBulkAction.mockResolvedValue(ok(job));
    actions.controlBulkAction.mockImplementation(async () => ok((job = bulkJob({ state: 'running', startedAt: job.snapshotAt }))));
    routes(() => job);
    renderInApp(<BulkAllButton brokerId={B} action="replay" filter={{ queue: 'emails', task: 'app.tasks.send_email' }} />);

    await userEvent.click(screen.getByRole('button', { name: 'Replay all matching…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay 3 dead letters?' });
    // The snapshot is asked for with the list's filter, once.
    expect(actions.createBulkAction).toHaveBeenCalledTimes(1);
    expect(actions.createBulkAction).toHaveBeenCalledWith(B, {
      action: 'replay',
      filter: { queue: 'emails', task: 'app.tasks.send_email' },
    });
    expect(within(dialog).getByTestId('bulk-count').textContent).toBe('3');
    expect(within(dialog).getByTestId('bulk-summary').textContent).toBe('Replay 3 dead letters on broker b1, queue emails.');
    // What a replay does on this system is the adapter's sentence.
    await within(dialog).findByText(/The task goes back to its queue under its own id\./);

    const confirm = within(dialog).getByRole('button', { name: 'Replay 3 dead letters' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(confirm, { force: true });
    expect(actions.controlBulkAction).not.toHaveBeenCalled();

    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-12 smtp fixed');
    await userEvent.click(confirm);
    expect(actions.controlBulkAction).toHaveBeenCalledWith(B, 'bulk-1', 'start', { confirmCount: 3, reason: 'OPS-12 smtp fixed' });
    await screen.findByRole('dialog', { name: 'Replay 3 dead letters: running' });
  });

  it('shows progress while the job runs, then each id that was skipped or failed, as text', async () => {
    const running = bulkJob({ state: 'running', progress: { total: 3, processed: 1, succeeded: 1, skipped: 0, failed: 0, batches: 1 } });
    const done = bulkJob({
      state: 'done',
      progress: { total: 3, processed: 3, succeeded: 1, skipped: 1, failed: 1, batches: 1 },
      skippedOutcomes: [{ id: 'dl-2', outcome: 'missing', message: 'gone since the snapshot' }],
      failedOutcomes: [{ id: HOSTILE, outcome: 'error', message: HOSTILE }],
    });
    let answer = running;
    routes(() => answer, [running]);
    renderInApp(<BulkAllButton brokerId={B} action="replay" filter={{ queue: 'emails' }} />);
    // A job already running is reopened from its button (the jobs list), not snapshotted again.
    await userEvent.click(await screen.findByRole('button', { name: 'Replay job running: 1 / 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay 3 dead letters: running' });
    expect(actions.createBulkAction).not.toHaveBeenCalled();
    const bar = within(dialog).getByRole('progressbar', { name: 'Replay progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('1');
    expect(bar.getAttribute('aria-valuemax')).toBe('3');
    expect(within(dialog).getByTestId('bulk-processed').textContent).toBe('1 of 3 (33%)');

    answer = done;
    const outcome = await within(dialog).findByTestId('bulk-outcome', {}, { timeout: 3000 });
    expect(within(outcome).getByTestId('bulk-succeeded').textContent).toBe('1 of 3 replayed');
    expect(within(outcome).getByTestId('bulk-skipped').textContent).toBe('1 skipped');
    expect(within(outcome).getByTestId('bulk-failed').textContent).toBe('1 failed');
    const skipped = within(outcome).getAllByTestId('bulk-skipped-list-item');
    expect(skipped.map((li) => [li.dataset.id, li.textContent])).toEqual([['dl-2', 'dl-2missing: gone since the snapshot']]);
    const failed = within(outcome).getByTestId('bulk-failed-list-item');
    // Hostile payload text stays text: no element made of it, the bidi override shown as a marker.
    expect(failed.querySelector('img, a, script')).toBeNull();
    expect(failed.textContent).toContain('<img src=x onerror=');
    expect(failed.textContent).toContain('⟨U+202E⟩gpj.exe');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('says when the snapshot differs from the count the operator was shown', async () => {
    const job = bulkJob({
      state: 'queued',
      action: 'discard',
      filter: { group: 'fp-0123456789abcdef' },
      expectedCount: 412,
      progress: { total: 410, processed: 0, succeeded: 0, skipped: 0, failed: 0, batches: 0 },
    });
    actions.createBulkAction.mockResolvedValue(ok(job));
    routes(() => job);
    renderInApp(
      <BulkAllButton
        brokerId={B}
        action="discard"
        filter={{ group: 'fp-0123456789abcdef' }}
        expectedCount={412}
        label="Discard all 412 of this group…"
        groupLabel="KeyError: <str>"
      />,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Discard all 412 of this group…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard 410 dead letters?' });
    expect(actions.createBulkAction).toHaveBeenCalledWith(B, {
      action: 'discard',
      filter: { group: 'fp-0123456789abcdef' },
      expectedCount: 412,
    });
    expect(within(dialog).getByTestId('bulk-count-changed').textContent).toBe(
      'The list showed 412; 410 match now (letters arrived or left since). Only these 410 are touched.',
    );
    expect(within(dialog).getByTestId('bulk-group-pattern').textContent).toBe('KeyError: <str>');
  });

  it('asks with the list’s range as written and states the instants the job froze', async () => {
    const frozen = { queue: 'emails', since: '2026-12-04T19:00:00.000Z' };
    actions.createBulkAction.mockResolvedValue(ok(bulkJob({ state: 'queued', filter: frozen })));
    routes(() => bulkJob({ state: 'queued', filter: frozen }));
    renderInApp(<BulkAllButton brokerId={B} action="replay" filter={{ queue: 'emails', since: '1h' }} />);

    await userEvent.click(screen.getByRole('button', { name: 'Replay all matching…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay 3 dead letters?' });
    expect(actions.createBulkAction).toHaveBeenCalledWith(B, { action: 'replay', filter: { queue: 'emails', since: '1h' } });
    expect(within(dialog).getByTestId('bulk-summary').textContent).toBe(
      'Replay 3 dead letters on broker b1, queue emails, died since 2026-12-04T19:00:00.000Z.',
    );
  });

  it('drops an unconfirmed snapshot when the dialog is cancelled', async () => {
    actions.createBulkAction.mockResolvedValue(ok(bulkJob({ state: 'queued' })));
    actions.controlBulkAction.mockResolvedValue(ok(bulkJob({ state: 'cancelled' })));
    routes(() => bulkJob({ state: 'queued' }));
    renderInApp(<BulkAllButton brokerId={B} action="replay" filter={{}} />);

    await userEvent.click(screen.getByRole('button', { name: 'Replay all matching…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay 3 dead letters?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(actions.controlBulkAction).toHaveBeenCalledWith(B, 'bulk-1', 'cancel');
  });

  it('is disabled with its reason when the action is off', async () => {
    routes(() => bulkJob({ state: 'queued' }));
    renderInApp(<BulkAllButton brokerId={B} action="replay" filter={{}} disabledReason="read-only: configured so" />);
    const button = screen.getByRole('button', { name: 'Replay all matching…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('read-only: configured so');
    await userEvent.click(button, { force: true });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(actions.createBulkAction).not.toHaveBeenCalled();
  });
});
