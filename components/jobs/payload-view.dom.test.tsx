import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MessageView } from '@/lib/brokers/schema';
import { renderInApp } from '@/tests/support/component';
import { PayloadView } from './payload-view';

const view = (over: Partial<MessageView>): MessageView => ({
  format: 'sdj',
  task: 'billing.charge',
  id: 'j-1',
  queue: 'billing',
  args: null,
  kwargs: null,
  fields: [{ name: 'status', value: { t: 'str', v: 'pending' } }],
  headers: [],
  flags: [],
  foreign: null,
  value: null,
  ...over,
});

describe('PayloadView', () => {
  it('shows positional and keyword arguments where the system takes calls', () => {
    renderInApp(
      <PayloadView payload={view({ args: { t: 'list', items: [] }, kwargs: { t: 'dict', entries: [['to', { t: 'str', v: 'ada' }]] } })} />,
    );
    expect(screen.getByText('No positional arguments.')).toBeTruthy();
    expect(screen.getByText('Keyword arguments')).toBeTruthy();
    expect(screen.getByTestId('payload-kwargs').textContent).toContain('ada');
  });

  it('shows one value under the system’s name for it, never positional or keyword arguments', () => {
    const shape = { shape: 'value', label: 'Args', help: "The job's args: one JSON value." } as const;
    renderInApp(<PayloadView shape={shape} payload={view({ kwargs: { t: 'dict', entries: [['order', { t: 'int', v: '9' }]] } })} />);
    const one = screen.getByTestId('payload-value');
    expect(within(one).getByRole('heading').textContent).toBe('Args');
    expect(within(one).getByRole('heading').title).toBe("The job's args: one JSON value.");
    expect(one.textContent).toContain('order');
    expect(screen.getByTestId('payload-view').textContent).not.toMatch(/positional|Keyword arguments/);
  });

  it('shows a value the adapter kept as its `args` field (a scalar, ciphertext) as that one value', () => {
    const shape = { shape: 'value', label: 'Args', help: 'h' } as const;
    renderInApp(
      <PayloadView shape={shape} payload={view({ fields: [{ name: 'args', value: { t: 'int', v: '42' }, carriesArgs: true }] })} />,
    );
    expect(screen.getByTestId('payload-value').textContent).toContain('42');
  });
});
