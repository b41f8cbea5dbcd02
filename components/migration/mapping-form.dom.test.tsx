import { screen } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderInApp } from '@/tests/support/component';
import { moveTarget } from '@/tests/support/component-fixtures';
import { emptyDraft } from './mapping-fields';
import { MappingForm } from './mapping-form';

function Harness({ onSaved }: { onSaved: () => void }) {
  const [draft, setDraft] = useState(emptyDraft('qf'));
  return (
    <MappingForm brokerId="c" targets={[moveTarget('qf')]} names={['shop.charge']} draft={draft} onChange={setDraft} onSaved={onSaved} />
  );
}

const posts = (f: ReturnType<typeof mockApi>) =>
  (f.mock.calls as unknown as Array<[unknown, RequestInit | undefined]>)
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init!.body)) as unknown);

describe('MappingForm', () => {
  it('shows a payload key given twice under its field and sends nothing; then saves the typed mapping', async () => {
    const f = mockApi({ '/api/brokers/c/mappings': { saved: {}, before: null } });
    const saved = vi.fn();
    renderInApp(<Harness onSaved={saved} />);
    await userEvent.fill(screen.getByTestId('mapping-task'), 'shop.charge');
    await userEvent.click(screen.getByTestId('mapping-add-arg'));
    await userEvent.click(screen.getByTestId('mapping-add-arg'));
    await userEvent.fill(screen.getByTestId('mapping-arg-0'), 'order');
    await userEvent.fill(screen.getByTestId('mapping-arg-1'), 'order');
    await userEvent.click(screen.getByTestId('mapping-save'));
    expect((await screen.findByTestId('mapping-error-args-1')).textContent).toBe('payload key "order" is already positional argument 0');
    expect(posts(f)).toEqual([]);

    await userEvent.fill(screen.getByTestId('mapping-arg-1'), 'amount');
    await userEvent.fill(screen.getByTestId('mapping-defaults'), '{"currency": "EUR"}');
    await userEvent.selectOptions(screen.getByTestId('mapping-enc-decimal'), 'text');
    await userEvent.fill(screen.getByTestId('mapping-max-retries'), '2');
    await userEvent.click(screen.getByTestId('mapping-save'));
    await vi.waitFor(() => expect(saved).toHaveBeenCalledOnce());
    expect(posts(f)).toEqual([
      {
        source: 'c',
        target: 'qf',
        task: 'shop.charge',
        args: ['order', 'amount'],
        defaults: { currency: 'EUR' },
        encodings: { decimal: 'text' },
        retry: { maxRetries: 2 },
      },
    ]);
    expect(screen.queryByTestId('mapping-error-args-1')).toBeNull();
  });

  it("puts the server's field errors under the fields", async () => {
    mockApi({
      '/api/brokers/c/mappings': {
        status: 400,
        error: { code: 'InvalidInput', message: 'target: no broker', fields: { target: 'not a configured broker' } },
      },
    });
    renderInApp(<Harness onSaved={vi.fn()} />);
    await userEvent.fill(screen.getByTestId('mapping-task'), 't');
    await userEvent.click(screen.getByTestId('mapping-save'));
    expect((await screen.findByTestId('mapping-error-target')).textContent).toBe('not a configured broker');
  });
});
