import { describe, expect, it } from 'vitest';
import { insertValue } from './snippets';

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
    expect(JSON.parse(insertValue('{"a": 1}', 7, '2', 'object', 'when "x"').text)).toEqual({ a: 1, 'when "x"': 2 });
    expect(JSON.parse(insertValue('{}', 1, '3', 'object', 'n').text)).toEqual({ n: 3 });
  });
});
