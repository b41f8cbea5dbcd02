import { describe, expect, it } from 'vitest';
import { LOOKED_KEY, readLooked, writeLooked } from './looked';

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: () => null,
    get length() {
      return m.size;
    },
  };
}

describe('the last look', () => {
  it('is null before the first look and keeps what each broker showed after', () => {
    const s = memory();
    expect(readLooked(s)).toBeNull();
    writeLooked(s, 1000, { a: ['fp-1'], b: ['fp-2'] });
    writeLooked(s, 2000, { a: ['fp-1', 'fp-3'] });
    expect(readLooked(s)).toEqual({ at: 2000, fingerprints: { a: ['fp-1', 'fp-3'], b: ['fp-2'] } });
  });

  it('treats a record it cannot read as no look at all', () => {
    const s = memory();
    for (const bad of ['{', '"text"', '{"at":"x","fingerprints":{}}', '{"at":1,"fingerprints":{"a":[1]}}']) {
      s.setItem(LOOKED_KEY, bad);
      expect(readLooked(s)).toBeNull();
    }
  });
});
