import { describe, expect, it } from 'vitest';
import { DecodeMemo } from './decode-memo';

describe('DecodeMemo', () => {
  it('decodes a payload once, and keeps text and bytes of the same characters apart', () => {
    const m = new DecodeMemo<string>(10, 100);
    let made = 0;
    const dec = (p: string | Uint8Array) => m.get(p, () => `${typeof p}:${++made}`);
    expect(dec('{"a":1}')).toBe('string:1');
    expect(dec('{"a":1}')).toBe('string:1');
    expect(dec(Buffer.from('{"a":1}'))).toBe('object:2');
    // Equal bytes in another buffer (and a view into a larger one) are the same key.
    const big = Buffer.from('xx{"a":1}yy');
    expect(dec(new Uint8Array(big.buffer, big.byteOffset + 2, 7))).toBe('object:2');
    expect(dec(Buffer.from([0xff, 0xfe]))).toBe('object:3');
    expect(made).toBe(3);
  });

  it('is bounded: the oldest entry goes first, and payloads over the length are never kept', () => {
    const m = new DecodeMemo<number>(2, 4);
    let made = 0;
    const dec = (p: string) => m.get(p, () => ++made);
    dec('a');
    dec('b');
    dec('c');
    expect(m.size).toBe(2);
    expect(dec('a')).toBe(4);
    expect(dec('c')).toBe(3);
    expect(dec('long!')).toBe(5);
    expect(dec('long!')).toBe(6);
    expect(m.size).toBe(2);
  });
});
