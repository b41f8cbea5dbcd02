import { describe, expect, it } from 'vitest';
import { pairSafeEnd } from './cut';

describe('pairSafeEnd', () => {
  it('steps back over a high surrogate only', () => {
    const s = 'ab😀c';
    expect(pairSafeEnd(s, 3)).toBe(2);
    expect(pairSafeEnd(s, 4)).toBe(4);
    expect(pairSafeEnd(s, 2)).toBe(2);
    expect(pairSafeEnd(s, 0)).toBe(0);
  });
});
