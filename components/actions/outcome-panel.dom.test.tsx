import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OutcomePanel } from './outcome-panel';

describe('OutcomePanel', () => {
  it('names the task each id became where the target gave it another id, as text', () => {
    render(
      <OutcomePanel
        result={{
          action: 'move',
          brokerId: 'c',
          requested: 2,
          succeeded: [
            { id: 'a', outcome: 'ok', message: 'enqueued on QF (as job J1); removed from C', taskId: 'J1' },
            { id: 'b', outcome: 'ok', message: 'enqueued on P; removed from C' },
          ],
          failed: [],
        }}
      />,
    );
    const items = screen.getAllByTestId('outcome-new-task');
    expect(items.map((i) => [i.dataset.id, i.textContent])).toEqual([['a', 'a → J1enqueued on QF (as job J1); removed from C']]);
  });

  it('lists nothing new when every id kept its own', () => {
    render(
      <OutcomePanel
        result={{
          action: 'replay',
          brokerId: 'c',
          requested: 1,
          succeeded: [{ id: 'a', outcome: 'ok', message: 'x', taskId: 'a' }],
          failed: [],
        }}
      />,
    );
    expect(screen.queryByTestId('outcome-new-tasks')).toBeNull();
  });
});
