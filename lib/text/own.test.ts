import { describe, expect, it } from 'vitest';
import { ownCopy } from './own';

describe('ownCopy', () => {
  it('gives back the same text, whatever it holds', () => {
    for (const s of ['', 'short', 'x'.repeat(5000), 'Traceback\n  "quoted" \\ \u2028 emoji 🎉', 'lone \ud800 surrogate and more text'])
      expect(ownCopy(s)).toBe(s);
    expect(ownCopy(null)).toBeNull();
  });
});
