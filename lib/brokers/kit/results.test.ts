import { describe, expect, it } from 'vitest';
import type { ActionOutcome } from '@/lib/brokers/dto';
import { actionResult, outcomesInOrder, reasonOf } from './results';

const ok = (id: string): ActionOutcome => ({ id, outcome: 'ok', message: 'done' });
const gone = (id: string): ActionOutcome => ({ id, outcome: 'missing', message: 'not here' });

describe('actionResult', () => {
  it('splits outcomes into succeeded and failed, each in the order given', () => {
    const r = actionResult('replay', 'b1', ['c', 'a', 'b'], [gone('c'), ok('a'), { id: 'b', outcome: 'error', message: 'x' }]);
    expect(r).toEqual({
      action: 'replay',
      brokerId: 'b1',
      requested: 3,
      succeeded: [ok('a')],
      failed: [gone('c'), { id: 'b', outcome: 'error', message: 'x' }],
    });
  });

  it('counts the ids as given: a caller that acts once per id passes them deduplicated', () => {
    expect(actionResult('discard', 'b', ['a', 'a'], [ok('a')]).requested).toBe(2);
    expect(actionResult('discard', 'b', [...new Set(['a', 'a'])], [ok('a')]).requested).toBe(1);
  });

  it('answers an empty request with empty lists', () => {
    expect(actionResult('revoke', 'b', [], [])).toEqual({ action: 'revoke', brokerId: 'b', requested: 0, succeeded: [], failed: [] });
  });
});

describe('outcomesInOrder', () => {
  it("puts reported outcomes in the ids' order and reports an id the write skipped as missing", () => {
    const out = outcomesInOrder(['x', 'y', 'z'], [ok('z'), ok('x')], gone);
    expect(out).toEqual([ok('x'), gone('y'), ok('z')]);
  });

  it("finds an outcome under the system's spelling and answers with the id as requested", () => {
    const out = outcomesInOrder(['AB-1'], [ok('ab-1')], gone, (id) => id.toLowerCase());
    expect(out).toEqual([ok('AB-1')]);
  });

  it('answers every copy of a repeated id with its last report (where the id ended)', () => {
    const out = outcomesInOrder(['a', 'a'], [ok('a'), gone('a')], () => ok('never'));
    expect(out).toEqual([gone('a'), gone('a')]);
  });
});

describe('reasonOf', () => {
  it("is an Error's message, or the text of anything else thrown", () => {
    expect(reasonOf(new Error('boom'))).toBe('boom');
    expect(reasonOf('plain')).toBe('plain');
    expect(reasonOf(42)).toBe('42');
  });
});
