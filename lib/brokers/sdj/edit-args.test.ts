import { describe, expect, it } from 'vitest';
import { fieldsOfError } from '@/tests/support/invalid-fields';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { argsShown, editedArgs, NO_ARGS, replayView, typedToJson } from './edit-args';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('SDJ edited args', () => {
  it("writes the edited keys as the JSON object's text, numbers exact", () => {
    const kwargs: Array<[string, TypedValue]> = [
      ['id', { t: 'int', v: '12345678901234567891' }],
      ['rate', { t: 'float', v: '0.25' }],
      ['to', { t: 'str', v: 'ü "q"\n' }],
      ['tags', { t: 'list', items: [{ t: 'bool', v: true }, { t: 'null' }] }],
      ['nested', { t: 'dict', entries: [['a', { t: 'tuple', items: [] }]] }],
    ];
    expect(editedArgs(bytes('{"id":1}'), { kwargs })).toBe(
      '{"id":12345678901234567891,"rate":0.25,"to":"ü \\"q\\"\\n","tags":[true,null],"nested":{"a":[]}}',
    );
    expect(JSON.parse(editedArgs(null, { kwargs: [] })!)).toEqual({});
    expect(editedArgs(bytes('null'), { kwargs: [['a', { t: 'int', v: '1' }]] })).toBe('{"a":1}');
  });

  it('leaves the args as stored when no keys are given', () => {
    expect(editedArgs(bytes('[1,2]'), { queue: 'q' })).toBeNull();
    expect(editedArgs(bytes('sdjenc:xyz'), { priority: 3 })).toBeNull();
  });

  it('writes dates as their ISO text and names a bad one', () => {
    expect(typedToJson({ t: 'datetime', v: '2026-12-02T10:30:00+01:00', aware: true, epochMs: null }, 'kwargs.at')).toBe(
      '"2026-12-02T10:30:00+01:00"',
    );
    expect(
      fieldsOfError(() => editedArgs(null, { kwargs: [['at', { t: 'datetime', v: 'tomorrow 9am', aware: false, epochMs: null }]] })),
    ).toEqual({ 'kwargs.at': expect.stringContaining('date-time') });
  });

  it('refuses what JSON cannot hold, values cut for display, positional args and keys given twice', () => {
    const one = (v: TypedValue) => fieldsOfError(() => editedArgs(null, { kwargs: [['k', v]] }));
    expect(one({ t: 'bytes', base64: 'AA==', size: 1 })).toEqual({ 'kwargs.k': expect.stringContaining('no bytes') });
    expect(one({ t: 'float', v: 'NaN' })).toEqual({ 'kwargs.k': expect.stringContaining('NaN') });
    expect(one({ t: 'str', v: 'abc', truncated: 10 })).toEqual({ 'kwargs.k': expect.stringContaining('too long') });
    expect(one({ t: 'list', items: [{ t: 'deep', depth: 40 }] })).toEqual({ 'kwargs.k[0]': expect.stringContaining('deeper') });
    expect(fieldsOfError(() => editedArgs(null, { args: [{ t: 'int', v: '1' }] }))).toEqual({ args: NO_ARGS });
    expect(
      fieldsOfError(() =>
        editedArgs(null, {
          kwargs: [
            ['a', { t: 'null' }],
            ['a', { t: 'null' }],
          ],
        }),
      ),
    ).toEqual({ 'kwargs.a': 'is given twice' });
  });

  it('refuses key edits of args that are not a JSON object: an array, encrypted or other bytes', () => {
    const kw = { kwargs: [['a', { t: 'null' }]] as Array<[string, TypedValue]> };
    expect(fieldsOfError(() => editedArgs(bytes('[1]'), kw))).toEqual({ kwargs: expect.stringContaining('JSON array') });
    expect(fieldsOfError(() => editedArgs(bytes('sdjenc:abc'), kw))).toEqual({ kwargs: expect.stringContaining('payload codec') });
    expect(fieldsOfError(() => editedArgs(Buffer.from([0xff, 0x00]), kw))).toEqual({ kwargs: expect.stringContaining('not JSON') });
  });

  it('shows the row a replay leaves as one JSON object, the args as stored', () => {
    const view = replayView({ type: 't', queue: 'q', priority: 2, args: argsShown(bytes('{"big": 12345678901234567891}')) });
    expect(view).toBe('{"type":"t","queue":"q","priority":2,"args":{"big": 12345678901234567891}}');
    expect(JSON.parse(replayView({ type: 't', queue: 'q', priority: 0, args: argsShown(bytes('sdjenc:zz')) })).args).toContain('encrypted');
    expect(argsShown(null)).toBe('null');
  });
});
