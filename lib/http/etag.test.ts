import { describe, expect, it } from 'vitest';
import { etagOf, notModified } from './etag';

describe('etagOf', () => {
  it('tags the same bytes alike and different bytes apart', () => {
    expect(etagOf('{"a":1}')).toBe(etagOf(Buffer.from('{"a":1}')));
    expect(etagOf('{"a":1}')).not.toBe(etagOf('{"a":2}'));
    expect(etagOf('{}')).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
  });
});

describe('notModified', () => {
  const tag = etagOf('{"queues":[]}');
  const opaque = tag.slice(2);

  it('matches the tag sent back, weak or strong, alone or in a list', () => {
    expect(notModified(tag, tag)).toBe(true);
    expect(notModified(opaque, tag)).toBe(true);
    expect(notModified(`"other", ${tag}`, tag)).toBe(true);
    expect(notModified('*', tag)).toBe(true);
  });

  it('does not match another tag, nothing, a repeated header or an overlong one', () => {
    expect(notModified(etagOf('{"queues":[1]}'), tag)).toBe(false);
    expect(notModified(undefined, tag)).toBe(false);
    expect(notModified('', tag)).toBe(false);
    expect(notModified([tag, tag], tag)).toBe(false);
    expect(notModified(`${'"x", '.repeat(500)}${tag}`, tag)).toBe(false);
  });
});
