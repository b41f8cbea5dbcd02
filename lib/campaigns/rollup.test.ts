import { describe, expect, it } from 'vitest';
import { deadAgain, rollupLine, rollupOf, sameError } from './rollup';

describe('campaign roll-up', () => {
  it('splits the dead by whether the error is the one before, and counts every item once', () => {
    const r = rollupOf([
      { fate: 'succeeded', same: null, n: 1964 },
      { fate: 'dead', same: true, n: 31 },
      { fate: 'dead', same: false, n: 2 },
      { fate: 'dead', same: null, n: 1 },
      { fate: 'waiting', same: null, n: 5 },
      { fate: 'gone', same: null, n: 3 },
    ]);
    expect(r).toMatchObject({ total: 2006, succeeded: 1964, deadSame: 31, deadNew: 2, deadUnlinked: 1, waiting: 5, gone: 3, pending: 0 });
    expect(deadAgain(r)).toBe(34);
  });

  it('says the roll-up in one line, leaving out what has no task, gone never as success', () => {
    const r = rollupOf([
      { fate: 'succeeded', same: null, n: 1964 },
      { fate: 'dead', same: true, n: 31 },
      { fate: 'waiting', same: null, n: 5 },
    ]);
    expect(rollupLine(r)).toBe('1,964 succeeded · 31 died again, same error · 5 waiting');
    expect(rollupLine(rollupOf([{ fate: 'gone', same: null, n: 2 }]))).toBe('2 gone (result expired, not counted as success)');
    expect(rollupLine(rollupOf([]))).toBe('no tasks');
  });

  it('says "failed" for tasks that had not run before (moved waiting tasks): nothing died before', () => {
    const r = rollupOf([
      { fate: 'succeeded', same: null, n: 4 },
      { fate: 'dead', same: null, n: 3 },
      { fate: 'running', same: null, n: 1 },
    ]);
    expect(rollupLine(r, true)).toBe('4 succeeded · 3 failed · 1 running');
    expect(rollupLine(r)).toBe('4 succeeded · 3 died again (error not comparable) · 1 running');
    expect(rollupLine(rollupOf([{ fate: 'waiting', same: null, n: 2 }]), true)).toBe('2 waiting');
  });

  it('cannot call an error the same or new when either fingerprint is unknown', () => {
    expect(sameError('fp-1', 'fp-1')).toBe(true);
    expect(sameError('fp-1', 'fp-2')).toBe(false);
    expect(sameError(null, 'fp-2')).toBeNull();
    expect(sameError('fp-1', null)).toBeNull();
  });
});
