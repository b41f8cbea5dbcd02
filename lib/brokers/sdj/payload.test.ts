import { describe, expect, it } from 'vitest';
import { decodePayload } from './payload';

describe('decodePayload', () => {
  it('decodes JSON bytes, keeps ciphertext and other bytes as bytes', () => {
    expect(decodePayload(Buffer.from('{"a":[1,"x"]}'))).toEqual({ kind: 'json', value: { a: [1, 'x'] }, size: 13 });
    expect(decodePayload(Buffer.from('sdjenc:AAAA'))).toMatchObject({ kind: 'encrypted', size: 11 });
    expect(decodePayload(Buffer.from([0xff, 0x00, 0x7b]))).toEqual({ kind: 'bytes', base64: '/wB7', size: 3 });
    expect(decodePayload(Buffer.from('not json'))).toMatchObject({ kind: 'bytes' });
    expect(decodePayload(null)).toBeNull();
  });
});
