// Python accepts any Unicode decimal digit (category Nd) where it parses numbers: `int()` (so
// uuid.UUID) and `Decimal()`. Every Nd run in Unicode is a whole number of 0..9 blocks, so a
// digit's value is its distance from the run's start, modulo 10.
const ND = /\p{Nd}/u;

export function asciiDigits(s: string): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80 || !ND.test(ch)) {
      out += ch;
      continue;
    }
    let start = cp;
    while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
    out += String((cp - start) % 10);
  }
  return out;
}
