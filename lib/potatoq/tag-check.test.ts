import { describe, expect, it } from 'vitest';
import { buildMessage, BuildMessageError } from './index';
import { parseJson } from '@/lib/pyvalues/json';
import { findBadTags } from './tag-check';

const bad = (json: string) => findBadTags(parseJson(json)).map((b) => [b.path.join('.'), b.message]);

describe('bad tagged values', () => {
  it('names a datetime potatoq would leave as a dict, by its path', () => {
    expect(bad('{"when": {"__potatoq__": "datetime", "v": "tomorrow 9am"}}')).toEqual([
      ['when', expect.stringMatching(/^"tomorrow 9am" is not a valid datetime: give an ISO 8601 date-time .*plain dict$/)],
    ]);
  });

  it('names unknown tags and values the decoder chokes on', () => {
    expect(bad('[1, {"__potatoq__": "datetme", "v": "2026-01-01"}]')).toEqual([
      ['1', expect.stringMatching(/^"datetme" is not a tag potatoq knows/)],
    ]);
    expect(bad('{"id": {"__potatoq__": "uuid", "v": 1}}')).toEqual([['id', expect.stringMatching(/could not decode the message at all/)]]);
  });

  it('names the innermost bad value, and passes good and plain ones', () => {
    expect(bad('{"s": {"__potatoq__": "set", "v": [{"__potatoq__": "uuid", "v": "nope"}]}}').map(([p]) => p)).toEqual(['s.v.0']);
    expect(
      bad(
        '[{"__potatoq__": "datetime", "v": "2026-12-01T09:00:00+00:00"}, {"__potatoq__": "decimal", "v": "0.10"}, {"a": 1, "v": 2}, {"__potatoq__": "x"}]',
      ),
    ).toEqual([]);
  });

  it('makes buildMessage refuse the message, keyed by field path, writing nothing', () => {
    let err: unknown;
    try {
      buildMessage({
        task: 't',
        kwargs: '{"ok": 1, "when": {"__potatoq__": "datetime", "v": "tomorrow 9am"}}',
        now: 1000,
        refuseBadTags: true,
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BuildMessageError);
    expect((err as BuildMessageError).field).toBe('kwargs.when');
    expect(Object.keys((err as BuildMessageError).fields)).toEqual(['kwargs.when']);
    // potatoq's own `call` writes it as given; a good value builds the same either way.
    expect(() => buildMessage({ task: 't', kwargs: '{"when": {"__potatoq__": "datetime", "v": "tomorrow 9am"}}' })).not.toThrow();
    const good = { task: 't', args: '[{"__potatoq__":"uuid","v":"1b4e28ba-2fa1-11d2-883f-0016d3cca427"}]', id: 'x', now: 1000 };
    expect(buildMessage({ ...good, refuseBadTags: true }).json).toBe(buildMessage(good).json);
  });
});
