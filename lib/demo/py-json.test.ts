import { describe, expect, it } from 'vitest';
import { float, pyDumps, tagged } from './py-json';

describe('pyDumps', () => {
  it("writes floats as Python's repr does", () => {
    expect(pyDumps([float(5400), float(0.1), float(1e-5), float(1.5e16), float(-0), float(1796002528.9048302)])).toBe(
      '[5400.0,0.1,1e-05,1.5e+16,-0.0,1796002528.9048302]',
    );
  });

  it('writes NaN and the infinities as bare tokens, like allow_nan', () => {
    expect(pyDumps([float(NaN), float(Infinity), float(-Infinity)])).toBe('[NaN,Infinity,-Infinity]');
  });

  it('keeps big integers exact and refuses unsafe JS numbers', () => {
    expect(pyDumps(1208925819614629174706176n)).toBe('1208925819614629174706176');
    expect(() => pyDumps(2 ** 60)).toThrow(/bigint/);
  });

  it('writes raw UTF-8 and compact separators, or json.dumps spacing on request', () => {
    expect(pyDumps({ a: ['ž', tagged('set', [1])] })).toBe('{"a":["ž",{"__potatoq__":"set","v":[1]}]}');
    expect(pyDumps({ a: [1, 2] }, false)).toBe('{"a": [1, 2]}');
  });
});
