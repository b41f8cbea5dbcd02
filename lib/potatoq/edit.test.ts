import { describe, expect, it } from 'vitest';
import { reencodeEdited, typedToWire } from './edit';
import { EditError } from '@/lib/pyvalues/typed-edit';

const raw =
  '{"task":"shop.charge","args":[{"__potatoq__":"decimal","v":"12.50"},"x"],"kwargs":{"at":{"__potatoq__":"datetime","v":"2026-12-01T09:00:00+00:00"}},"id":"a1","queue":"billing","eta":1796130000.5,"enqueued_at":1796130000.25,"root_id":"a1","v":1}';

describe('reencodeEdited', () => {
  it('replaces the edited fields, keeps the id, task and the rest, and drops eta as a replay does', () => {
    const r = reencodeEdited(
      raw,
      {
        args: [
          { t: 'decimal', v: '13.75' },
          {
            t: 'set',
            items: [
              { t: 'int', v: '2' },
              { t: 'int', v: '1' },
            ],
          },
        ],
        kwargs: [
          ['at', { t: 'datetime', v: '2026-12-02T10:30:00+01:00', aware: true, epochMs: null }],
          ['ref', { t: 'uuid', v: '6F9619FF-8B86-D011-B42D-00C04FC964FF' }],
          ['blob', { t: 'bytes', base64: 'aGk=', size: 2 }],
        ],
        queue: 'billing-retry',
        priority: 5,
      },
      1796130001,
    );
    expect(JSON.parse(r.before)).not.toHaveProperty('eta');
    const after = JSON.parse(r.after) as Record<string, unknown>;
    expect(after).toMatchObject({
      task: 'shop.charge',
      id: 'a1',
      queue: 'billing-retry',
      priority: 5,
      enqueued_at: 1796130000.25,
      root_id: 'a1',
    });
    expect(after).not.toHaveProperty('eta');
    expect(after.args).toEqual([
      { __potatoq__: 'decimal', v: '13.75' },
      { __potatoq__: 'set', v: [1, 2] },
    ]);
    expect(after.kwargs).toEqual({
      at: { __potatoq__: 'datetime', v: '2026-12-02T10:30:00+01:00' },
      ref: { __potatoq__: 'uuid', v: '6f9619ff-8b86-d011-b42d-00c04fc964ff' },
      blob: { __potatoq__: 'bytes', v: 'aGk=' },
    });
  });

  it('refuses a value potatoq would not receive as the chosen type, naming the field', () => {
    const bad = (edit: Parameters<typeof reencodeEdited>[1]): [string, string] | null => {
      try {
        reencodeEdited(raw, edit);
      } catch (e) {
        if (e instanceof EditError) return [e.field, e.message];
        throw e;
      }
      return null;
    };
    expect(bad({ kwargs: [['at', { t: 'datetime', v: 'tomorrow 9am', aware: false, epochMs: null }]] })).toEqual([
      'kwargs.at',
      "kwargs.at: is not an ISO 8601 date-time (2026-12-01T09:00:00+00:00): potatoq's workers would receive it as a plain dict",
    ]);
    expect(bad({ args: [{ t: 'uuid', v: 'not-a-uuid' }] })?.[0]).toBe('args[0]');
    expect(bad({ args: [{ t: 'decimal', v: '1,5' }] })?.[0]).toBe('args[0]');
    expect(bad({ args: [{ t: 'set', items: [{ t: 'list', items: [] }] }] })?.[0]).toBe('args[0]');
    expect(bad({ args: [{ t: 'int', v: '1.5' }] })).toEqual(['args[0]', 'args[0]: must be a whole number']);
    expect(bad({ args: [{ t: 'str', v: 'abc', truncated: 10 }] })?.[0]).toBe('args[0]');
    expect(bad({ queue: ' ' })?.[0]).toBe('queue');
    expect(
      bad({
        kwargs: [
          ['a', { t: 'null' }],
          ['a', { t: 'null' }],
        ],
      })?.[0],
    ).toBe('kwargs.a');
  });

  it('writes floats and specials as Python does', () => {
    expect(typedToWire({ t: 'float', v: '3' }, 'x')).toBe('3.0');
    expect(typedToWire({ t: 'float', v: 'NaN' }, 'x')).toBe('NaN');
  });
});
