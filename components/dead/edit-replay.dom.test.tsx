import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import * as brokerActions from '@/lib/actions/broker-actions';
import type { EditPreview } from '@/lib/brokers/schema-edit';
import { fakeRouter, mockApi, renderInApp } from '@/tests/support/component';
import { HOSTILE, deadDetail, message, overview } from '@/tests/support/component-fixtures';
import { EditReplay } from './edit-replay';

const actions = vi.mocked(brokerActions);
const B = 'b1';
const d = deadDetail('dl-1');

const preview = (after: string): EditPreview => ({
  brokerId: B,
  id: 'dl-1',
  before: JSON.stringify({ id: 'dl-1', task: 'app.tasks.send_email', args: ['a@example.com'], queue: 'emails' }),
  after,
  newId: 'dl-1',
  sameId: true,
  does: 'The letter is sent again with the arguments below.',
});

async function openEditor(off?: Record<string, string>) {
  mockApi({ [`/api/brokers/${B}/queues`]: overview(B, { off }) });
  const router = fakeRouter();
  renderInApp(<EditReplay brokerId={B} d={d} />, router);
  await userEvent.click(await screen.findByRole('button', { name: 'Edit and replay…' }));
  return { card: screen.getByTestId('edit-replay'), router };
}

describe('EditReplay', () => {
  it('shows what the replay does and the letter’s values, each in its type', async () => {
    const { card } = await openEditor();
    expect(within(card).getByTestId('edit-does').textContent).toBe(
      'The letter is sent again with the arguments below. It runs as dl-1 (same id).',
    );
    expect((within(card).getByRole('textbox', { name: 'args[0]' }) as HTMLInputElement).value).toBe('a@example.com');
    expect((within(card).getByRole('combobox', { name: 'Type of kwargs.when' }) as HTMLSelectElement).value).toBe('datetime');
    expect((within(card).getByRole('textbox', { name: 'kwargs.when' }) as HTMLInputElement).value).toBe('2026-12-01T09:00:00+00:00');
    expect((within(card).getByTestId('edit-queue') as HTMLInputElement).value).toBe('emails');
    expect((within(card).getByTestId('edit-priority') as HTMLInputElement).value).toBe('0');
  });

  it('shows a bad value’s error under its field and offers no replay', async () => {
    actions.previewReplayEditedAction.mockResolvedValue({
      ok: false,
      error: { code: 'InvalidInput', message: 'The edit has invalid values.', fields: { 'kwargs.when': 'not an ISO 8601 date-time' } },
    });
    const { card } = await openEditor();
    const when = within(card).getByRole('textbox', { name: 'kwargs.when' });
    await userEvent.fill(when, 'next tuesday');
    await userEvent.click(within(card).getByRole('button', { name: 'Show the message before and after' }));

    expect(actions.previewReplayEditedAction).toHaveBeenCalledWith(B, 'dl-1', {
      args: [{ t: 'str', v: 'a@example.com' }],
      kwargs: [['when', { t: 'datetime', v: 'next tuesday', aware: false, epochMs: 1796115600000 }]],
      queue: 'emails',
      priority: 0,
    });
    const err = await within(card).findByTestId('edit-error-kwargs.when');
    expect(err.textContent).toBe('not an ISO 8601 date-time');
    // Under its own field: inside the editor of kwargs.when, which is marked invalid.
    expect(err.closest('[data-path]')?.getAttribute('data-path')).toBe('kwargs.when');
    expect(when.getAttribute('aria-invalid')).toBe('true');
    expect(within(card).getByTestId('edit-error').textContent).toBe('The edit has invalid values.');
    // No diff, no reason, no replay button: nothing can be submitted.
    expect(within(card).queryByTestId('edit-diff')).toBeNull();
    expect(within(card).queryByTestId('edit-confirm')).toBeNull();
    expect(actions.replayEditedAction).not.toHaveBeenCalled();

    // Editing the value again clears the error.
    await userEvent.fill(when, '2026-12-02T09:00:00+00:00');
    expect(within(card).queryByTestId('edit-error-kwargs.when')).toBeNull();
    expect(when.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows a bad priority’s error under the priority', async () => {
    actions.previewReplayEditedAction.mockResolvedValue({
      ok: false,
      error: { code: 'InvalidInput', message: 'The edit has invalid values.', fields: { priority: 'a whole number' } },
    });
    const { card } = await openEditor();
    await userEvent.fill(within(card).getByTestId('edit-priority'), 'high');
    await userEvent.click(within(card).getByRole('button', { name: 'Show the message before and after' }));
    const priority = within(card).getByTestId('edit-priority').closest('label')!;
    await within(priority).findByText('a whole number');
    expect(actions.previewReplayEditedAction.mock.calls[0]?.[2].priority).toBeNaN();
    expect(within(card).queryByTestId('edit-confirm')).toBeNull();
  });

  it('replays the previewed edit with a reason, then says as which id', async () => {
    actions.previewReplayEditedAction.mockResolvedValue({
      ok: true,
      data: preview(JSON.stringify({ id: 'dl-1', task: 'app.tasks.send_email', args: ['b@example.com'], queue: 'emails' })),
    });
    actions.replayEditedAction.mockResolvedValue({
      ok: true,
      data: { ...preview('{}'), outcome: { id: 'dl-1', outcome: 'ok', message: 'enqueued on emails' } },
    });
    const { card, router } = await openEditor();
    await userEvent.fill(within(card).getByRole('textbox', { name: 'args[0]' }), 'b@example.com');
    await userEvent.click(within(card).getByRole('button', { name: 'Show the message before and after' }));

    const diff = await within(card).findByTestId('edit-diff');
    const rows = within(diff).getAllByTestId('edit-diff-row');
    expect(rows.filter((r) => r.dataset.changed === 'yes').map((r) => r.dataset.field)).toEqual(['args']);
    const confirm = within(card).getByRole('button', { name: 'Replay with these edits' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await userEvent.fill(within(card).getByRole('textbox', { name: 'Reason' }), 'OPS-7 wrong address');
    await userEvent.click(confirm);

    expect(actions.replayEditedAction).toHaveBeenCalledWith(
      B,
      'dl-1',
      expect.objectContaining({ args: [{ t: 'str', v: 'b@example.com' }], queue: 'emails', priority: 0 }),
      'OPS-7 wrong address',
    );
    expect((await within(card).findByTestId('edit-outcome')).textContent).toBe('Replayed as dl-1: enqueued on emails.');
    await waitFor(() => expect(router.push).toHaveBeenCalledWith(`/brokers/${B}/jobs/dl-1`), { timeout: 3000 });
  });

  it('renders a hostile message in the diff as text', async () => {
    actions.previewReplayEditedAction.mockResolvedValue({ ok: true, data: preview(JSON.stringify({ id: 'dl-1', [HOSTILE]: HOSTILE })) });
    const { card } = await openEditor();
    await userEvent.click(within(card).getByRole('button', { name: 'Show the message before and after' }));
    const diff = await within(card).findByTestId('edit-diff');
    expect(diff.querySelector('img, a, script')).toBeNull();
    expect(diff.textContent).toContain('<img src=x');
    expect(diff.textContent).toContain('⟨U+202E⟩');
    expect(diff.textContent).not.toContain('\u202E');
  });

  it('is off with the broker’s reason, and absent for a message it cannot edit', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B, { off: { replay: 'read-only: configured so' } }) });
    const { unmount } = renderInApp(<EditReplay brokerId={B} d={d} />);
    const open = (await screen.findByRole('button', { name: 'Edit and replay…' })) as HTMLButtonElement;
    expect(open.disabled).toBe(true);
    expect(open.title).toBe('read-only: configured so');
    unmount();

    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    const foreign = deadDetail('dl-9', {
      payload: message({
        foreign: {
          code: 'celery-v2',
          title: 'Not a potatoq message: Celery protocol 2 message',
          reasonBy: 'potatoq',
          reason: 'a Celery message',
          advice: 'Convert it, or discard it.',
          crashesWorkers: false,
        },
      }),
    });
    const { client } = renderInApp(<EditReplay brokerId={B} d={foreign} />);
    // Once the broker's declaration is in, a message it cannot edit shows no editor at all.
    await waitFor(() => expect(client.getQueryState(['broker', B, 'overview'])?.status).toBe('success'));
    expect(screen.queryByTestId('edit-replay')).toBeNull();
  });

  it('is off with the reason the system gives for this letter', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    const kept = deadDetail('dl-2', {
      unavailable: { replayEdited: 'its message is in the dead-letter queue q.dlq: replay it without edits' },
    });
    renderInApp(<EditReplay brokerId={B} d={kept} />);
    const open = (await screen.findByRole('button', { name: 'Edit and replay…' })) as HTMLButtonElement;
    expect(open.disabled).toBe(true);
    expect(open.title).toBe('its message is in the dead-letter queue q.dlq: replay it without edits');
  });
});
