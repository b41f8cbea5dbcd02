// A memo key for a text of any size: its length and two independent 32-bit hashes of its
// UTF-16 units (FNV-1a and a multiply-rotate), one pass, no copy. 64 bits: a collision among a
// memo's few thousand entries is far less likely than a cosmic ray. Pure and client-safe.

export function textKey(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return `${s.length}:${(a >>> 0).toString(16)}:${(b >>> 0).toString(16)}`;
}
