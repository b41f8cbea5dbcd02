import { describe, expect, it } from 'vitest';
import { dumpsPy } from '@/lib/potatoq/dumps';
import { dumpsJson } from './dumps-json';
import { parseJson } from './json';
import { plainPy } from './pyval';

describe('dumpsJson', () => {
  it("writes plain JSON as Python's compact json.dumps, as potatoq's dumps does for untyped values", () => {
    for (const text of [
      '{"a":1e16,"b":[1.0,-0.0,NaN,-Infinity],"c":"é\\n\\u0001","d":123456789012345678901234567890}',
      '[]',
      'null',
      '"x"',
      '{"__potatoq__":"date","v":"2026-01-01"}',
    ]) {
      expect(dumpsJson(parseJson(text))).toBe(dumpsPy(plainPy(parseJson(text))));
    }
    expect(dumpsJson(parseJson('{"a":1e16,"b":1.0}'))).toBe('{"a":1e+16,"b":1.0}');
  });
});
