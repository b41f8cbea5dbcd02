import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor';

describe('SDJ keyset cursors', () => {
  it('round-trips the database timestamp text with its microseconds', () => {
    const c = { at: '2026-01-02 03:04:05.123456+00', id: '0190f0e0-0000-7000-8000-000000000001' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    expect(decodeCursor('')).toBeNull();
  });

  it('refuses anything it did not give out, naming the field', () => {
    const forged = Buffer.from(JSON.stringify(["1' OR 1=1 --", 'x'])).toString('base64url');
    for (const bad of ['%%%', 'bm9wZQ', forged]) expect(() => decodeCursor(bad)).toThrow(/^cursor: /);
  });
});
