import { screen, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import * as brokerActions from '@/lib/actions/broker-actions';
import { mockApi, renderInApp } from '@/tests/support/component';
import { HOSTILE, actionResult, moveTarget, overview } from '@/tests/support/component-fixtures';
import { MoveAction } from './move-action';

const actions = vi.mocked(brokerActions);
const B = 'b1';
const REFUSED = 'QueueFlow keeps one JSON payload: no Celery call to move';

function routes() {
  return mockApi({
    [`/api/brokers/${B}/queues`]: overview(B, { movable: true }),
    [`/api/brokers/${B}/move-targets`]: [moveTarget('c1'), moveTarget('c2'), moveTarget('qf1', REFUSED)],
  });
}

async function openDialog(ids = ['dl-1', 'dl-2']) {
  renderInApp(<MoveAction brokerId={B} queue="emails" ids={ids} />);
  await userEvent.click(screen.getByRole('button', { name: `Move to broker…${ids.length > 1 ? ` ${ids.length}` : ''}` }));
  return screen.findByRole('dialog', { name: `Move ${ids.length} dead letter${ids.length === 1 ? '' : 's'} to another broker?` });
}

describe('MoveAction', () => {
  it('preselects no target and cannot move until one is chosen', async () => {
    routes();
    const dialog = await openDialog();
    const select = (await within(dialog).findByRole('combobox', { name: 'Move to' })) as HTMLSelectElement;
    expect(select.value).toBe('');
    // Only the brokers the server pairs with this one are offered.
    expect([...select.options].map((o) => [o.value, o.text, o.disabled])).toEqual([
      ['', 'Choose a broker…', true],
      ['c1', 'c1 (Celery) (c1)', false],
      ['c2', 'c2 (Celery) (c2)', false],
    ]);
    const submit = within(dialog).getByTestId('move-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(submit.title).toBe('Choose the broker to move to first');
    expect(within(dialog).queryByTestId('move-summary')).toBeNull();
    // The others are listed with why not.
    expect(within(dialog).getByTestId('move-refused').textContent).toContain(`qf1 (Celery): ${REFUSED}`);

    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-9 drain b1');
    expect(submit.disabled).toBe(true);
    await userEvent.click(submit, { force: true });
    expect(actions.moveDeadAction).not.toHaveBeenCalled();
  });

  it('says where the letters go once chosen, and moves them with the reason', async () => {
    routes();
    actions.moveDeadAction.mockResolvedValue({
      ok: true,
      data: actionResult('move', B, ['dl-1'], [{ id: 'dl-2', outcome: 'conflict', message: HOSTILE }]),
    });
    const dialog = await openDialog();
    await userEvent.selectOptions(await within(dialog).findByRole('combobox', { name: 'Move to' }), 'c2');
    expect(within(dialog).getByTestId('move-summary').textContent).toBe(
      'Move 2 dead letters from broker b1 to broker c2 (from queue emails): each is enqueued there under its own id, then removed here.',
    );
    expect(within(dialog).getByText('Enqueued on c2 as a Celery task.')).toBeTruthy();
    const submit = within(dialog).getByRole('button', { name: 'Move 2 dead letters to c2' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-9 drain b1');
    await userEvent.click(submit);

    expect(actions.moveDeadAction).toHaveBeenCalledWith(B, 'c2', ['dl-1', 'dl-2'], 'OPS-9 drain b1', 'emails');
    const outcome = await within(dialog).findByTestId('action-outcome');
    expect(within(outcome).getByTestId('outcome-succeeded').textContent).toBe('1 of 2 moved');
    const failed = within(outcome).getByTestId('outcome-failed-item');
    expect(failed.dataset.id).toBe('dl-2');
    expect(failed.textContent).toContain('conflict: <img src=x');
    expect(outcome.querySelector('img, a, script')).toBeNull();
    // The target stays as it was moved to.
    expect((within(dialog).getByRole('combobox', { name: 'Move to' }) as HTMLSelectElement).disabled).toBe(true);
  });

  it('says so when no broker can take the letters', async () => {
    mockApi({
      [`/api/brokers/${B}/queues`]: overview(B, { movable: true }),
      [`/api/brokers/${B}/move-targets`]: [moveTarget('qf1', REFUSED)],
    });
    const dialog = await openDialog(['dl-1']);
    expect((await within(dialog).findByTestId('move-none')).textContent).toBe('No configured broker can take these letters.');
    expect(within(dialog).queryByRole('combobox')).toBeNull();
    expect((within(dialog).getByTestId('move-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('moves waiting tasks with the waiting targets and action, per-id outcomes shown', async () => {
    const mapped = { id: 'qf1', name: 'Flows', pairing: { on: true as const, does: 'Created on Flows under a key.', mapped: true } };
    mockApi({
      [`/api/brokers/${B}/queues`]: overview(B, { movable: true }),
      // The dead letters' pairing is not the waiting tasks': only `?from=waiting` offers qf1.
      [`/api/brokers/${B}/move-targets`]: (u: URL) => (u.searchParams.get('from') === 'waiting' ? [mapped] : [moveTarget('c1')]),
      [`/api/brokers/${B}/move-preview`]: { keyed: null, items: [] },
    });
    actions.moveWaitingAction.mockResolvedValue({
      ok: true,
      data: actionResult('move', B, ['w-1'], [{ id: 'w-2', outcome: 'missing', message: 'not waiting (a worker took it)' }]),
    });
    renderInApp(<MoveAction from="waiting" brokerId={B} queue="emails" ids={['w-1', 'w-2']} />);
    await userEvent.click(screen.getByRole('button', { name: 'Move to broker… 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move 2 waiting tasks to another broker?' });
    const select = (await within(dialog).findByRole('combobox', { name: 'Move to' })) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['', 'qf1']);
    await userEvent.selectOptions(select, 'qf1');
    expect(within(dialog).getByTestId('move-summary').textContent).toContain(
      'taken from its queue here (a task a worker got first stays with it)',
    );
    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-10 drain');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move 2 waiting tasks to qf1' }));
    expect(actions.moveWaitingAction).toHaveBeenCalledWith(B, 'qf1', ['w-1', 'w-2'], 'OPS-10 drain', 'emails');
    expect(actions.moveDeadAction.mock.calls.filter((c) => c[1] === 'qf1')).toEqual([]);
    const outcome = await within(dialog).findByTestId('action-outcome');
    expect(within(outcome).getByTestId('outcome-succeeded').textContent).toBe('1 of 2 moved');
    expect(within(outcome).getByTestId('outcome-failed-item').dataset.id).toBe('w-2');
  });

  const back = { id: 'c1', name: 'c1 (Celery)', pairing: { on: true as const, mapped: true, back: true, does: 'Read the other way.' } };
  const JOB = '6f1c2a3e-0000-4000-8000-000000000001';
  const backPreview = {
    keyed: "Each task is enqueued on c1 under its b1 job's id",
    items: [
      {
        id: '17',
        source: null,
        job: null,
        letter: { jobId: JOB, task: 'charge', queue: 'billing', payload: { order: 7, note: HOSTILE }, priority: null },
        call: { id: JOB, task: 'billing.charge', queue: 'billing', args: '[7]', kwargs: `{'note': '${HOSTILE}'}`, priority: null },
        problems: {},
        notCarried: ["the job's retry settings"],
        notes: [],
      },
      {
        id: '18',
        source: null,
        job: null,
        letter: null,
        call: null,
        problems: { 'payload.order': 'no key "order"' },
        notCarried: [],
        notes: [],
      },
    ],
  };
  const backRoutes = () =>
    mockApi({
      [`/api/brokers/${B}/queues`]: overview(B, { movable: true }),
      [`/api/brokers/${B}/move-targets`]: [back],
      [`/api/brokers/${B}/move-preview`]: backPreview,
    });
  const previewBodies = (fetchMock: ReturnType<typeof mockApi>) =>
    (fetchMock.mock.calls as unknown as [string, RequestInit?][])
      .filter(([u]) => String(u).includes('/move-preview'))
      .map(([, init]) => JSON.parse(String(init?.body)));

  it('waiting jobs going back as calls say how and preview each call they become', async () => {
    const fetchMock = backRoutes();
    renderInApp(<MoveAction from="waiting" brokerId={B} ids={['17', '18']} />);
    await userEvent.click(screen.getByRole('button', { name: 'Move to broker… 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move 2 waiting tasks to another broker?' });
    await userEvent.selectOptions(await within(dialog).findByRole('combobox', { name: 'Move to' }), 'c1');
    expect(within(dialog).getByTestId('move-summary').textContent).toContain('call mapping whose target task is its name');
    await within(dialog).findByTestId('move-preview');
    expect(previewBodies(fetchMock)).toEqual([{ to: 'c1', ids: ['17', '18'], from: 'waiting' }]);
  });

  it('moving back through a mapping says how and previews the job beside its call, problems by field', async () => {
    const fetchMock = backRoutes();
    const dialog = await openDialog(['17', '18']);
    await userEvent.selectOptions(await within(dialog).findByRole('combobox', { name: 'Move to' }), 'c1');
    expect(within(dialog).getByTestId('move-summary').textContent).toBe(
      "Move 2 dead letters from broker b1 to broker c1 (from queue emails): each is converted through the call mapping whose target task is its name and enqueued there under its job's id, then marked moved here.",
    );
    const preview = await within(dialog).findByTestId('move-preview');
    expect(preview.textContent).toContain(
      "1 of 2 can move; 1 would be refused, nothing moved for it. Each task is enqueued on c1 under its b1 job's id.",
    );
    expect(within(preview).getByTestId('move-preview-call').textContent).toBe(
      `→ billing.charge([7], **{'note': '${HOSTILE}'}) on billing · task id ${JOB}`,
    );
    expect(preview.textContent).toContain('charge on billing: {"order":7');
    expect(preview.textContent).toContain("not carried: the job's retry settings");
    expect(within(preview).getByTestId('move-preview-problem').textContent).toBe('payload.order: no key "order"');
    expect(preview.querySelector('img, a, script')).toBeNull();
    expect(previewBodies(fetchMock)).toEqual([{ to: 'c1', ids: ['17', '18'] }]);
  });
});
