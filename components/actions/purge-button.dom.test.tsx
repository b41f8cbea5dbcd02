import { screen, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import * as brokerActions from '@/lib/actions/broker-actions';
import { mockApi, renderInApp } from '@/tests/support/component';
import { overview } from '@/tests/support/component-fixtures';
import { PurgeButton } from './purge-button';

const actions = vi.mocked(brokerActions);
const B = 'b1';

describe('PurgeButton', () => {
  it('says what goes and how much, and purges only once the queue name is typed and a reason given', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B, { queues: [{ name: 'emails', ready: 12, scheduled: 3 }] }) });
    actions.purgeAction.mockResolvedValue({ ok: true, data: { brokerId: B, queue: 'emails', removed: 15 } });
    renderInApp(<PurgeButton brokerId={B} queue="emails" />);

    await userEvent.click(screen.getByRole('button', { name: 'Purge queue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Purge queue emails?' });
    await within(dialog).findByTestId('purge-count');
    expect(within(dialog).getByTestId('confirm-summary').textContent).toBe(
      'Delete every waiting task (ready and scheduled) in queue emails on broker b1: 12 ready and 3 scheduled right now. Running tasks and dead letters stay.',
    );
    const submit = within(dialog).getByRole('button', { name: 'Purge' }) as HTMLButtonElement;
    const typed = within(dialog).getByRole('textbox', { name: 'Queue name to confirm' });
    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-4 bad deploy');
    await userEvent.fill(typed, 'email');
    expect(submit.disabled).toBe(true);
    await userEvent.fill(typed, 'emails');
    expect(submit.disabled).toBe(false);
    await userEvent.click(submit);

    expect(actions.purgeAction).toHaveBeenCalledWith(B, 'emails', 'emails', 'OPS-4 bad deploy');
    expect((await within(dialog).findByTestId('action-outcome')).textContent).toBe('Removed 15 waiting tasks from emails.');
  });

  it('does not submit without a reason, even with the name typed', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B, { queues: [{ name: 'emails', ready: 1, scheduled: 0 }] }) });
    renderInApp(<PurgeButton brokerId={B} queue="emails" />);
    await userEvent.click(screen.getByRole('button', { name: 'Purge queue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Purge queue emails?' });
    const typed = within(dialog).getByRole('textbox', { name: 'Queue name to confirm' });
    await userEvent.fill(typed, 'emails');
    // Enter in the field submits the form: it must not reach the server either.
    await userEvent.type(typed, '{Enter}');
    expect(actions.purgeAction).not.toHaveBeenCalled();
    expect((within(dialog).getByRole('button', { name: 'Purge' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('is disabled with its reason', () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    renderInApp(<PurgeButton brokerId={B} queue="emails" disabledReason="read-only: configured so" />);
    const button = screen.getByRole('button', { name: 'Purge queue' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('read-only: configured so');
  });
});

describe('PurgeButton in a named environment', () => {
  const production = { console: null, brokers: { [B]: 'production' } };

  it('names the environment in red and asks for "production/<queue>", sending the bare name', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B, { queues: [{ name: 'emails', ready: 2, scheduled: 0 }] }) });
    actions.purgeAction.mockResolvedValue({ ok: true, data: { brokerId: B, queue: 'emails', removed: 2 } });
    renderInApp(<PurgeButton brokerId={B} queue="emails" />, undefined, production);

    await userEvent.click(screen.getByRole('button', { name: 'Purge queue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Purge queue emails?' });
    expect(within(dialog).getByTestId('confirm-environment').textContent).toBe('productionBroker b1 is in production.');
    expect(within(dialog).getByTestId('confirm-environment-badge').className).toMatch(/bg-red-100/);
    const submit = within(dialog).getByRole('button', { name: 'Purge' }) as HTMLButtonElement;
    const typed = within(dialog).getByRole('textbox', { name: 'Queue name to confirm' });
    await userEvent.fill(within(dialog).getByRole('textbox', { name: 'Reason' }), 'OPS-5');
    // The bare name, typed by habit, is not enough where an environment is named.
    await userEvent.fill(typed, 'emails');
    expect(submit.disabled).toBe(true);
    await userEvent.fill(typed, 'staging/emails');
    expect(submit.disabled).toBe(true);
    await userEvent.fill(typed, 'production/emails');
    expect(submit.disabled).toBe(false);
    await userEvent.click(submit);
    expect(actions.purgeAction).toHaveBeenCalledWith(B, 'emails', 'emails', 'OPS-5');
    await within(dialog).findByTestId('action-outcome');
  });

  it('says nothing of an environment where none is configured', async () => {
    mockApi({ [`/api/brokers/${B}/queues`]: overview(B) });
    renderInApp(<PurgeButton brokerId={B} queue="emails" />, undefined, { console: null, brokers: { other: 'production' } });
    await userEvent.click(screen.getByRole('button', { name: 'Purge queue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Purge queue emails?' });
    expect(within(dialog).queryByTestId('confirm-environment')).toBeNull();
  });
});
