import { describe, expect, it } from 'vitest';
import { resultsOf } from './record';

describe('per-id outcomes of an audited action', () => {
  it('records an enqueue as the task it made, and one the system answered with an earlier task as `already`', () => {
    expect(resultsOf({ id: 'j1', state: 'ready', payload: '{}' })).toEqual({
      results: [{ id: 'j1', outcome: 'ok', message: 'ready' }],
      outcome: 'done',
    });
    const again = resultsOf({
      id: 'j1',
      state: 'ready',
      payload: '{}',
      outcome: { id: 'j1', outcome: 'already', message: 'already exists as job j1 (idempotency key "k")' },
    });
    expect(again.results).toEqual([{ id: 'j1', outcome: 'already', message: 'already exists as job j1 (idempotency key "k")' }]);
  });
});
