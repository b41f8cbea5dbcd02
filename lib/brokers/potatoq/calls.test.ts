import { describe, expect, it } from 'vitest';
import type { DeadDetail } from '@/lib/brokers/schema';
import { callOfLetter, messageOfCall } from './calls';

const letter = (raw: string): DeadDetail => ({ id: 'L1', queue: 'q', raw, rawSize: raw.length, rawTruncated: false }) as DeadDetail;
const RAW =
  '{"task":"mv.fail","args":[1,{"__potatoq__":"decimal","v":"1.50"},{"__potatoq__":"datetime","v":"2026-01-02T03:04:05+00:00"}],' +
  '"kwargs":{"u":{"__potatoq__":"uuid","v":"00000000-0000-0000-0000-000000000005"}},"id":"L1","queue":"mvq","priority":3,"eta":1796140333.5,"enqueued_at":1796140333.7,"v":1}';

// Written as Celery's message: lib/brokers/move-calls.test.ts (a move between systems).
describe("potatoq's letters as calls", () => {
  it('reads task, queue, typed args and kwargs and priority, and drops the eta', () => {
    const c = callOfLetter(letter(RAW));
    expect(c).toMatchObject({ id: 'L1', task: 'mv.fail', queue: 'mvq', priority: 3, expiresMs: null });
    expect(c.args).toMatchObject({ k: 'list', items: [{ k: 'int', text: '1' }, { k: 'decimal' }, { k: 'datetime' }] });
  });

  it('writes the call back as potatoq tags under its own id, ready now', () => {
    const m = messageOfCall(callOfLetter(letter(RAW)), 1_800_000_000);
    expect(m).toMatchObject({ id: 'L1', task: 'mv.fail', queue: 'mvq', priority: 3, eta: null });
    expect(m.json).toContain('"args":[1,{"__potatoq__":"decimal","v":"1.50"},{"__potatoq__":"datetime","v":"2026-01-02T03:04:05+00:00"}]');
    expect(m.json).toContain('"kwargs":{"u":{"__potatoq__":"uuid","v":"00000000-0000-0000-0000-000000000005"}}');
  });

  it("keeps the message's ignore_result, root_id and parent_id in potatoq's message", () => {
    const raw = RAW.replace('"v":1}', '"root_id":"R0","parent_id":"P1","ignore_result":true,"v":1}');
    const c = callOfLetter(letter(raw));
    expect(c).toMatchObject({ ignoreResult: true, rootId: 'R0', parentId: 'P1' });
    expect(JSON.parse(messageOfCall(c, 1_800_000_000).json)).toMatchObject({ root_id: 'R0', parent_id: 'P1', ignore_result: true });
  });

  it('a message without them (a result wanted, a first task) is written as potatoq writes a new call', () => {
    const c = callOfLetter(letter(RAW));
    expect(c).toMatchObject({ ignoreResult: false, rootId: null, parentId: null });
    const m = JSON.parse(messageOfCall(c, 1_800_000_000).json);
    expect(m.root_id).toBe('L1');
    expect(m).not.toHaveProperty('parent_id');
    expect(m).not.toHaveProperty('ignore_result');
  });

  it.each([
    ['0', false],
    ['1', true],
    ['false', false],
    ['""', false],
    ['"yes"', true],
    ['null', false],
  ])('reads ignore_result %s with Python truth (%s)', (v, want) => {
    expect(callOfLetter(letter(RAW.replace('"v":1}', `"ignore_result":${v},"v":1}`))).ignoreResult).toBe(want);
  });

  it('refuses what is not a potatoq call, saying why', () => {
    expect(() => callOfLetter(letter('{"task":"t","id":"L1","chord":{"callback":{"task":"cb"},"size":2},"v":1}'))).toThrow(
      /part of a chord/,
    );
    expect(() => callOfLetter(letter('[[1], {}, {}]'))).toThrow(/not a potatoq message/);
    expect(() => callOfLetter(letter('{"task":"t","id":"L1","link":[{"task":"cb"}],"v":1}'))).toThrow(/link callbacks/);
    expect(() => callOfLetter({ ...letter(RAW), rawTruncated: true })).toThrow(/more than the console reads whole/);
  });
});
