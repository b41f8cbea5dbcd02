import { describe, expect, it } from 'vitest';
import type { PyVal } from '@/lib/pyvalues/pyval';
import { decimalFromString } from '@/lib/pyvalues/pydecimal';
import type { TaskCall } from '@/lib/brokers/types';
import { callToPayload, payloadToCall } from './convert';
import { jobOf, moveKey, movedFrom } from './job';
import { ZCallMapping, type CallMappingInput } from './schema';

const map = (over: Partial<CallMappingInput> = {}) =>
  ZCallMapping.parse({ source: 'c', target: 'q', task: 'charge', args: ['order', 'amount'], ...over });
const int = (n: number): PyVal => ({ k: 'int', text: String(n) });
const str = (v: string): PyVal => ({ k: 'str', v });
const dec: PyVal = { k: 'decimal', dec: decimalFromString('1.50')! };
const list = (...items: PyVal[]): PyVal => ({ k: 'list', items });
const dict = (...entries: Array<[string, PyVal]>): PyVal => ({ k: 'dict', entries });
const call = (args: PyVal, kwargs: PyVal = dict(), over: Partial<TaskCall> = {}): TaskCall => ({
  id: 'abc',
  task: 'charge',
  queue: 'billing',
  args,
  kwargs,
  priority: null,
  expiresMs: null,
  ignoreResult: null,
  rootId: null,
  parentId: null,
  ...over,
});

describe('a call converted to a payload through its mapping', () => {
  it('puts positional i under its key, keeps kwargs by name and fills defaults', () => {
    const r = callToPayload(map({ defaults: { currency: 'EUR' } }), call(list(int(7), str('x')), dict(['note', str('n')])));
    expect(r).toEqual({ ok: true, value: { order: 7, amount: 'x', note: 'n', currency: 'EUR' }, notes: [] });
  });

  it('names a positional argument the letter lacks, unless a default gives it', () => {
    const r = callToPayload(map(), call(list(int(7))));
    expect(r.ok ? null : r.problems).toEqual({
      'args[1]': expect.stringMatching(/has 1 positional argument, none at index 1 for payload key "amount"/),
    });
    expect(callToPayload(map({ defaults: { amount: 0 } }), call(list(int(7)))).ok).toBe(true);
  });

  it('refuses a payload key that would come twice and a positional the mapping does not name', () => {
    const r = callToPayload(map(), call(list(int(1), int(2), int(3)), dict(['order', int(9)])));
    expect(r.ok ? null : r.problems).toEqual({
      'args[2]': expect.stringMatching(/names no payload key for positional argument 2/),
      'kwargs.order': 'payload key "order" would come from args[0] and from kwargs.order',
    });
  });

  it('refuses a value JSON cannot hold without an encoding, and converts it with one', () => {
    const bad = callToPayload(map(), call(list(int(1), dec)));
    expect(bad.ok ? null : bad.problems['args[1]']).toMatch(
      /a Decimal: JSON cannot hold it and the mapping chooses no encoding for decimal/,
    );
    const refused = callToPayload(map({ encodings: { decimal: 'refuse' } }), call(list(int(1), dec)));
    expect(refused.ok ? null : refused.problems['args[1]']).toMatch(/the mapping refuses decimal/);
    const ok = callToPayload(map({ encodings: { decimal: 'text' } }), call(list(int(1), dec)));
    expect(ok).toMatchObject({ ok: true, value: { order: 1, amount: '1.50' }, notes: ['encoded decimal as text'] });
    const set = callToPayload(map({ args: ['s'], encodings: { set: 'list' } }), call(list({ k: 'set', items: [int(1)] })));
    expect(set).toMatchObject({ ok: true, value: { s: [1] } });
    const bytes = callToPayload(map({ args: ['b'] }), call(list({ k: 'bytes', data: new Uint8Array([1]) })));
    expect(bytes.ok ? null : bytes.problems['args[0]']).toMatch(/a bytes/);
  });

  it('converts back: mapped keys to positional arguments in order, the others to kwargs', () => {
    const r = payloadToCall(map(), { amount: 2.5, order: 7, note: 'n' });
    expect(r).toEqual({
      ok: true,
      notes: [],
      value: { args: list(int(7), { k: 'float', v: 2.5 }), kwargs: dict(['note', str('n')]) },
    });
    expect(payloadToCall(map(), { order: 1 }).ok).toBe(false);
  });
});

describe('the call mapping schema', () => {
  it('names a payload key given twice, under the field', () => {
    const r = ZCallMapping.safeParse({ source: 'c', target: 'q', task: 't', args: ['a', 'b', 'a'] });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toEqual([
      expect.objectContaining({ path: ['args', 2], message: 'payload key "a" is already positional argument 0' }),
    ]);
  });

  it('refuses an encoding a kind does not have, and an unknown field', () => {
    const r = ZCallMapping.safeParse({ source: 'c', target: 'q', task: 't', args: [], encodings: { bytes: 'hex' }, extra: 1 });
    expect(r.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['', 'encodings.bytes']);
  });
});

describe('the job a letter becomes', () => {
  it('keeps priority, names what it cannot carry and keys the job by the letter id', () => {
    const r = jobOf(
      map({ targetTask: 'billing.charge', retry: { maxRetries: 2 } }),
      call(list(int(1), int(2)), dict(), { priority: 5, expiresMs: 0, parentId: 'p', etaMs: 2_000 }),
      1_000,
    );
    expect(r).toMatchObject({
      ok: true,
      job: {
        key: moveKey('abc'),
        task: 'billing.charge',
        queue: 'billing',
        priority: 5,
        runAt: new Date(2_000).toISOString(),
        retry: { maxRetries: 2 },
      },
      notCarried: [expect.stringMatching(/^its expiry/), expect.stringMatching(/workflow links \(parent p\)/)],
    });
  });
});

describe('where a job came from', () => {
  it("reads the letter id back from a move's key, and nothing from any other key", () => {
    expect(movedFrom(moveKey('abc'))).toBe('abc');
    expect(movedFrom('console-edit-dlq-5')).toBeNull();
    expect(movedFrom(undefined)).toBeNull();
  });
});
