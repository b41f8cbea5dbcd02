import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import * as brokerActions from '@/lib/actions/broker-actions';
import { mockApi, renderInApp } from '@/tests/support/component';
import { HOSTILE, actionResult, overview } from '@/tests/support/component-fixtures';
import { ConfirmAction } from './confirm-action';

const actions = vi.mocked(brokerActions);
const B = 'b1';

describe('ConfirmAction', () => {
  it('states the action, count, broker and queue, and needs a reason for a discard', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    actions.discardDeadAction.mockResolvedValue({ ok: true, data: actionResult('discard', B, ['dl-1', 'dl-2']) });
    const onDone = vi.fn();
    renderInApp(<ConfirmAction kind="discard" brokerId={B} queue="emails" ids={['dl-1', 'dl-2']} onDone={onDone} />);

    await userEvent.click(screen.getByRole('button', { name: 'Discard 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard 2 dead letters?' });
    expect(within(dialog).getByTestId('confirm-summary').textContent).toBe('Discard 2 dead letters on broker b1 in queue emails.');
    await within(dialog).findByText('The dead letter is deleted for good.');
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['dl-1', 'dl-2']);
    expect(within(dialog).getByText('potatoq dead purge dl-1 dl-2')).toBeTruthy();

    const submit = within(dialog).getByRole('button', { name: 'Discard 2 dead letters' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-3 duplicates');
    await userEvent.click(submit);
    expect(actions.discardDeadAction).toHaveBeenCalledWith(B, ['dl-1', 'dl-2'], 'OPS-3 duplicates', 'emails');
    expect((await within(dialog).findByTestId('outcome-succeeded')).textContent).toBe('2 of 2 discarded');
    expect(onDone).toHaveBeenCalledWith(actionResult('discard', B, ['dl-1', 'dl-2']));
    // Done: the only way on is to close.
    expect(within(dialog).queryByTestId('confirm-submit')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('acts on the ids it was opened with, even when the list changes under it', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    actions.replayDeadAction.mockResolvedValue({ ok: true, data: actionResult('replay', B, ['dl-1']) });
    const { rerender } = renderInApp(<ConfirmAction kind="replay" brokerId={B} queue="emails" ids={['dl-1']} />);
    await userEvent.click(screen.getByRole('button', { name: 'Replay' }));
    rerender(<ConfirmAction kind="replay" brokerId={B} queue="emails" ids={['dl-1', 'dl-7', 'dl-8']} />);
    const dialog = await screen.findByRole('dialog', { name: 'Replay 1 dead letter?' });
    // A replay needs no reason; none is sent when none is given.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay 1 dead letter' }));
    expect(actions.replayDeadAction).toHaveBeenCalledWith(B, ['dl-1'], undefined, 'emails');
  });

  it('lists each id that failed with its reason, as text', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    actions.replayDeadAction.mockResolvedValue({
      ok: true,
      data: actionResult(
        'replay',
        B,
        ['dl-1'],
        [
          { id: 'dl-2', outcome: 'already', message: 'replayed before' },
          { id: HOSTILE, outcome: 'missing', message: HOSTILE },
        ],
      ),
    });
    renderInApp(<ConfirmAction kind="replay" brokerId={B} ids={['dl-1', 'dl-2', HOSTILE]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Replay 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay 3 dead letters?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay 3 dead letters' }));

    const outcome = await within(dialog).findByTestId('action-outcome');
    expect(within(outcome).getByTestId('outcome-succeeded').textContent).toBe('1 of 3 replayed');
    expect(within(outcome).getByTestId('outcome-already-count').textContent).toBe('1 done before');
    expect(within(outcome).getByTestId('outcome-failed-count').textContent).toBe('1 failed');
    const failed = within(outcome).getByTestId('outcome-failed-item');
    expect(failed.dataset.id).toBe(HOSTILE);
    expect(failed.textContent).toContain('missing: <img src=x');
    expect(failed.textContent).toContain('⟨U+202E⟩gpj.exe');
    expect(dialog.querySelector('img, a, script')).toBeNull();
  });

  it('shows the server’s refusal of the reason under the reason, and stays open', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    actions.revokeAction.mockResolvedValue({
      ok: false,
      error: { code: 'InvalidInput', message: 'A reason is required.', fields: { reason: 'say why (it goes to the audit trail)' } },
    });
    renderInApp(<ConfirmAction kind="revoke" brokerId={B} queue="emails" ids={['t-1']} />);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke 1 task?' });
    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), '   x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke 1 task' }));
    expect((await within(dialog).findByTestId('confirm-reason-error')).textContent).toBe('say why (it goes to the audit trail)');
    expect(within(dialog).queryByTestId('action-outcome')).toBeNull();
  });

  it('is disabled with its reason, and with nothing selected', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    const { rerender } = renderInApp(
      <ConfirmAction kind="discard" brokerId={B} ids={['dl-1']} disabledReason="read-only: configured so" />,
    );
    const button = screen.getByRole('button', { name: 'Discard' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('read-only: configured so');
    rerender(<ConfirmAction kind="discard" brokerId={B} ids={[]} />);
    expect((screen.getByRole('button', { name: 'Discard' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }), { force: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("names the action and what it acts on in the system's words: SDJ's and QueueFlow's Cancel of jobs", async () => {
    const o = overview(B);
    const model = o.model!;
    o.model = {
      ...model,
      task: {
        noun: 'job',
        nouns: 'jobs',
        payload: { shape: 'value', label: 'Args', help: 'one JSON value' },
        deliveries: { label: 'Attempt', help: 'h' },
      },
      actions: { ...model.actions, revoke: { ...model.actions.revoke, words: { verb: 'Cancel', past: 'cancelled' } } },
    };
    mockApi({ [`/api/brokers/${B}/queues`]: o });
    actions.revokeAction.mockResolvedValue({ ok: true, data: actionResult('revoke', B, ['j-1', 'j-2']) });
    renderInApp(<ConfirmAction kind="revoke" brokerId={B} queue="billing" ids={['j-1', 'j-2']} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 2 jobs?' });
    expect(within(dialog).getByTestId('confirm-summary').textContent).toBe('Cancel 2 jobs on broker b1 in queue billing.');
    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-9 duplicate charges');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel 2 jobs' }));
    expect((await within(dialog).findByTestId('outcome-succeeded')).textContent).toBe('2 of 2 cancelled');
  });
});
