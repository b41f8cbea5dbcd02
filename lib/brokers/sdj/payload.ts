import 'server-only';

// `args` and `result` are bytes: JSON written by the Go API or a raw-SQL producer, or
// `sdjenc:`-prefixed ciphertext where the application configured a payload codec. Bytes that are
// not JSON are shown as bytes (base64), never guessed at.

export type SdjPayload =
  | { kind: 'json'; value: unknown; size: number }
  | { kind: 'encrypted'; base64: string; size: number }
  | { kind: 'bytes'; base64: string; size: number };

export const ENCRYPTED_PREFIX = 'sdjenc:';

export function decodePayload(v: unknown): SdjPayload | null {
  if (v === null || v === undefined) return null;
  const b = Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'utf8');
  if (b.subarray(0, ENCRYPTED_PREFIX.length).toString('latin1') === ENCRYPTED_PREFIX)
    return { kind: 'encrypted', base64: b.toString('base64'), size: b.length };
  const text = b.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(b)) {
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown, size: b.length };
    } catch {
      // not JSON: fall through to bytes
    }
  }
  return { kind: 'bytes', base64: b.toString('base64'), size: b.length };
}
