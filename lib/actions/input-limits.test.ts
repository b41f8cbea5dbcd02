// Hostile edit input (edit-and-replay) is the operator's mistake, answered 400 naming the field,
// never a server error: nesting deeper than zod's recursion can take, an integer Python refuses.
import { describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { reencodeEdited } from '@/lib/potatoq';
import { EditError } from '@/lib/pyvalues/typed-edit';
import { ZReplayEditRequest } from '@/lib/brokers/schema-edit';
import { MAX_INPUT_DEPTH, parseInput, tooDeepAt } from '@/lib/brokers/parse-input';

const nested = (levels: number): unknown => {
  let v: unknown = { t: 'null' };
  for (let i = 0; i < levels; i++) v = { t: 'list', items: [v] };
  return v;
};
const refused = (input: unknown): ConsoleError => {
  try {
    parseInput(ZReplayEditRequest, input);
  } catch (e) {
    expect(e).toBeInstanceOf(ConsoleError);
    return e as ConsoleError;
  }
  return expect.fail('accepted');
};

describe('edit input nesting', () => {
  it('refuses arguments nested 800 or 100,000 levels deep as InvalidInput (400) naming the field', () => {
    for (const levels of [800, 100_000]) {
      const a = refused({ args: [nested(levels)] });
      expect([a.code, a.status]).toEqual(['InvalidInput', 400]);
      expect(a.message).toBe(`args: is nested more than ${MAX_INPUT_DEPTH} levels deep`);
      const k = refused({ kwargs: [['x', nested(levels)]] });
      expect(k.message).toMatch(/^kwargs: is nested more than/);
    }
  });

  it('accepts arguments nested 100 levels (the console shows 64)', () => {
    expect(parseInput(ZReplayEditRequest, { args: [nested(100)] }).args).toHaveLength(1);
    expect(parseInput(ZReplayEditRequest, { kwargs: [['x', nested(100)]] }).kwargs).toHaveLength(1);
  });

  it('measures depth without recursion', () => {
    let deep: unknown = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(tooDeepAt(deep, 10)).toBe('0');
    expect(tooDeepAt({ a: 1, b: [[1], { c: [2] }] }, 3)).toBeNull();
    expect(tooDeepAt({ a: 1, b: [[1], { c: [[2]] }] }, 3)).toBe('b');
    expect(tooDeepAt([[[[]]]], 1)).toBe('0');
  });
});

describe('edit input numbers', () => {
  it("refuses an integer of 100,000 digits (over Python's 4,300) naming the argument", () => {
    const raw = '{"task":"t","args":[],"kwargs":{},"id":"a1","queue":"q","enqueued_at":1.5,"v":1}';
    const edit = ZReplayEditRequest.parse({ args: [{ t: 'null' }, { t: 'int', v: '9'.repeat(100_000) }] });
    const e = (() => {
      try {
        reencodeEdited(raw, edit);
      } catch (x) {
        return x;
      }
      return null;
    })();
    expect(e).toBeInstanceOf(EditError);
    expect((e as EditError).field).toBe('args[1]');
    expect((e as EditError).message).toMatch(/^args\[1\]: potatoq's workers could not read it: .*4300 digits/);
  });
});
