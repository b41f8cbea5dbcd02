import { describe, expect, it } from 'vitest';
import { diffRows } from './diff-rows';

const qf = (payload: string, queue = 'mail') => `{"task_name":"send","payload":${payload},"config":{"queue":"${queue}","priority":0}}`;

describe('the edit diff', () => {
  it('marks only the changed entry of an object field, not the whole payload', () => {
    const rows = diffRows(qf('{"to":"a@b","n":1,"at":"x"}'), qf('{"to":"a@b","n":2,"at":"x"}'));
    const payload = rows.find((r) => r.key === 'payload')!;
    expect(payload.changed).toBe(true);
    expect(payload.entries!.map((e) => [e.key, e.changed])).toEqual([
      ['to', false],
      ['n', true],
      ['at', false],
    ]);
    expect(rows.find((r) => r.key === 'task_name')!.changed).toBe(false);
    expect(rows.find((r) => r.key === 'config')!.changed).toBe(false);
  });

  it("keeps the original key order, new keys after, whatever the edited message's order", () => {
    const rows = diffRows(qf('{"to":"a@b","n":1}'), qf('{"extra":true,"n":1,"to":"c@d"}', 'other'));
    const payload = rows.find((r) => r.key === 'payload')!;
    expect(payload.entries!.map((e) => [e.key, e.before, e.after, e.changed])).toEqual([
      ['to', '"a@b"', '"c@d"', true],
      ['n', '1', '1', false],
      ['extra', undefined, 'true', true],
    ]);
    const config = rows.find((r) => r.key === 'config')!;
    expect(config.entries!.filter((e) => e.changed).map((e) => e.key)).toEqual(['queue']);
    expect(rows.map((r) => r.key)).toEqual(['task_name', 'payload', 'config']);
  });

  it('reads a reordered but equal object as unchanged, and a field that is not an object as a whole', () => {
    const rows = diffRows('{"args":[1,2],"kwargs":{"a":1,"b":2}}', '{"args":[1,3],"kwargs":{"b":2,"a":1}}');
    expect(rows.map((r) => [r.key, r.changed, r.entries === undefined])).toEqual([
      ['args', true, true],
      ['kwargs', false, false],
    ]);
    expect(diffRows('not json', 'not json either')).toEqual([
      { key: '(message)', before: 'not json', after: 'not json either', changed: true },
    ]);
  });
});
