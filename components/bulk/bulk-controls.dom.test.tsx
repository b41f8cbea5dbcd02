// The bulk dialog's controls once a job exists (pause, cancel, rate, resume after a failure) and
// a bulk move's first step (the target, for dead letters and waiting tasks). The dialog's count, confirmation and outcomes are in
// bulk-all-button.dom.test.tsx.
import { screen, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import * as bulkActions from '@/lib/bulk/actions';
import type { BulkJobView } from '@/lib/bulk/schema';
import { mockApi, renderInApp } from '@/tests/support/component';
import { bulkJob, moveTarget, overview } from '@/tests/support/component-fixtures';
import { BulkAllButton } from './bulk-all-button';

const actions = vi.mocked(bulkActions);
const ok = (data: BulkJobView) => ({ ok: true as const, data });
const B = 'b1';

async function reopen(job: BulkJobView) {
  mockApi({
    [`/api/brokers/${B}/queues`]: overview(B),
    [`/api/brokers/${B}/bulk`]: [job],
    [`/api/brokers/${B}/bulk/bulk-1`]: job,
  });
  renderInApp(<BulkAllButton brokerId={B} action="replay" filter={{ queue: 'emails' }} />);
  await userEvent.click(await screen.findByTestId('bulk-job-open'));
  return screen.findByTestId('bulk-dialog');
}

describe('bulk job controls', () => {
  it('pauses, cancels the rest and paces a running job', async () => {
    const running = bulkJob({
      state: 'running',
      progress: { total: 500, processed: 100, succeeded: 100, skipped: 0, failed: 0, batches: 1 },
    });
    actions.controlBulkAction.mockResolvedValue(ok(running));
    const dialog = await reopen(running);
    expect(within(dialog).getByTestId('bulk-processed').textContent).toBe('100 of 500 (20%)');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
    expect(actions.controlBulkAction).toHaveBeenLastCalledWith(B, 'bulk-1', 'pause', {});
    await userEvent.fill(within(dialog).getByRole('spinbutton', { name: 'Rate (per second)' }), '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set' }));
    expect(actions.controlBulkAction).toHaveBeenLastCalledWith(B, 'bulk-1', 'rate', { rate: 5 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the rest' }));
    expect(actions.controlBulkAction).toHaveBeenLastCalledWith(B, 'bulk-1', 'cancel', {});
    // Closing leaves a running job alone: no cancel is sent for it.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(actions.controlBulkAction).toHaveBeenCalledTimes(3);
  });

  it('says where an interrupted job stopped and what may have been applied', async () => {
    const paused = bulkJob({
      state: 'paused',
      progress: { total: 500, processed: 200, succeeded: 150, skipped: 0, failed: 50, batches: 2 },
      interrupted: { processed: 200, inFlight: 50, at: '2026-12-03T10:05:00.000Z' },
    });
    const dialog = await reopen(paused);
    expect(within(dialog).getByTestId('bulk-interrupted').textContent).toBe(
      'The console running this job stopped at 200 of 500; the 50 ids it had handed to the broker are reported failed (they may have been applied: check before retrying). Resume continues with the rest, from any console; cancel leaves them as they are.',
    );
    expect(within(dialog).getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('offers to resume a failed job from the batch that failed', async () => {
    const failed = bulkJob({
      state: 'failed',
      progress: { total: 300, processed: 100, succeeded: 100, skipped: 0, failed: 0, batches: 1 },
      error: { code: 'BrokerUnavailable', message: 'connection refused' },
      stoppedAt: { index: 100, id: 'dl-101' },
    });
    actions.controlBulkAction.mockResolvedValue(ok({ ...failed, state: 'running' }));
    mockApi({
      [`/api/brokers/${B}/queues`]: overview(B),
      [`/api/brokers/${B}/bulk`]: [],
      [`/api/brokers/${B}/bulk/bulk-1`]: failed,
    });
    actions.createBulkAction.mockResolvedValue(ok(failed));
    renderInApp(<BulkAllButton brokerId={B} action="replay" filter={{ queue: 'emails' }} />);
    await userEvent.click(screen.getByRole('button', { name: 'Replay all matching…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay 300 dead letters: failed' });
    expect(within(dialog).getByTestId('bulk-error').textContent).toBe('Stopped: BrokerUnavailable: connection refused');
    expect(within(dialog).getByTestId('bulk-not-reached').textContent).toBe('200 not reached (failed), left as they were');
    expect(within(dialog).getByTestId('bulk-stopped-at').textContent).toContain('Stopped at 101 of 300.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resume' }));
    expect(actions.controlBulkAction).toHaveBeenCalledWith(B, 'bulk-1', 'resume', {});
  });
});

describe('bulk move', () => {
  it('asks for the target first, none preselected, and counts only once one is picked', async () => {
    mockApi({
      [`/api/brokers/${B}/queues`]: overview(B, { movable: true }),
      [`/api/brokers/${B}/bulk`]: [],
      [`/api/brokers/${B}/move-targets`]: [moveTarget('c1'), moveTarget('qf1', 'no Celery call to move')],
    });
    const queued = bulkJob({ state: 'queued', action: 'move', filter: { queue: 'emails', to: 'c1' } });
    actions.createBulkAction.mockResolvedValue(ok(queued));
    renderInApp(<BulkAllButton brokerId={B} action="move" filter={{ queue: 'emails' }} />);
    await userEvent.click(screen.getByRole('button', { name: 'Move all matching…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move all matching dead letters' });

    const select = (await within(dialog).findByRole('combobox', { name: 'Move to' })) as HTMLSelectElement;
    expect(select.value).toBe('');
    const pick = within(dialog).getByRole('button', { name: 'Count the matching letters' }) as HTMLButtonElement;
    expect(pick.disabled).toBe(true);
    expect(actions.createBulkAction).not.toHaveBeenCalled();

    await userEvent.selectOptions(select, 'c1');
    await userEvent.click(pick);
    expect(actions.createBulkAction).toHaveBeenCalledWith(B, { action: 'move', filter: { queue: 'emails', to: 'c1' } });
    expect((await within(dialog).findByTestId('bulk-summary')).textContent).toBe(
      'Move 3 dead letters on broker b1, queue emails, to broker c1.',
    );
    // What the move does there is the pairing's sentence.
    expect(within(dialog).getByText(/^Enqueued on c1 as a Celery task\. Only these ids are touched/)).toBeTruthy();
  });
});

describe('bulk move of waiting tasks', () => {
  it('offers the brokers that take waiting tasks, then counts the waiting tasks of the list', async () => {
    const fetchMock = mockApi({
      [`/api/brokers/${B}/queues`]: overview(B),
      [`/api/brokers/${B}/bulk`]: [],
      [`/api/brokers/${B}/move-targets`]: (u: URL) => (u.searchParams.get('from') === 'waiting' ? [moveTarget('qf1')] : []),
    });
    const queued = bulkJob({ state: 'queued', action: 'move-waiting', filter: { queue: 'emails', to: 'qf1' } });
    actions.createBulkAction.mockResolvedValue(ok(queued));
    renderInApp(<BulkAllButton brokerId={B} action="move-waiting" filter={{ queue: 'emails' }} />);
    await userEvent.click(screen.getByRole('button', { name: 'Move all matching…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move all matching waiting tasks' });
    await userEvent.selectOptions(await within(dialog).findByRole('combobox', { name: 'Move to' }), 'qf1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Count the matching waiting tasks' }));
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('move-targets?from=waiting'))).toBe(true);
    expect(actions.createBulkAction).toHaveBeenCalledWith(B, { action: 'move-waiting', filter: { queue: 'emails', to: 'qf1' } });
    expect((await within(dialog).findByTestId('bulk-summary')).textContent).toBe(
      'Move 3 waiting tasks on broker b1, queue emails, to broker qf1.',
    );
  });
});
