import { describe, expect, it } from 'vitest';
import { insertValue, snippet } from './snippets';

describe('snippet', () => {
  it('writes potatoq tagged values', () => {
    expect(JSON.parse(snippet('decimal'))).toEqual({ __potatoq__: 'decimal', v: '0.10' });
    expect(snippet('datetime', new Date('2026-01-02T03:04:05.000Z'))).toBe(
      '{"__potatoq__":"datetime","v":"2026-01-02T03:04:05.000+00:00"}',
    );
  });
});

describe('insertValue', () => {
  it('turns an empty list into a one-item list', () => {
    expect(insertValue('[]', 1, '1', 'list').text).toBe('[1]');
  });
  it('adds a comma after an existing item', () => {
    const r = insertValue('[1]', 2, '2', 'list');
    expect(r.text).toBe('[1, 2]');
    expect(JSON.parse(r.text)).toEqual([1, 2]);
  });
  it('appends inside the list when the cursor is after the closing bracket', () => {
    expect(JSON.parse(insertValue('[1, 2]', 6, '3', 'list').text)).toEqual([1, 2, 3]);
  });
  it('adds a key in an object', () => {
    expect(JSON.parse(insertValue('{}', 1, '1', 'object').text)).toEqual({ key: 1 });
    expect(JSON.parse(insertValue('{"a": 1}', 7, '2', 'object').text)).toEqual({ a: 1, key: 2 });
  });
});
