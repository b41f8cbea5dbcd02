// Python character classes the decoders need.
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

/** Python's `str.isspace()` set (differs from JS `\s`: adds \x1c-\x1f and \x85, lacks \ufeff). */
export const PY_SPACE = '\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python's `str.strip()` with no argument. */
export function pyStrip(s: string): string {
  return stripBy(s, PY_SPACE_CHAR);
}
const PY_SPACE_CHAR = new RegExp(`^[${PY_SPACE}]$`);

// By index from both ends: `/[…]+$/` retries at every space of an inner run, quadratic in it.
function stripBy(s: string, space: RegExp): string {
  let end = s.length;
  while (end > 0 && space.test(s.charAt(end - 1))) end--;
  let start = 0;
  while (start < end && space.test(s.charAt(start))) start++;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

// int() turns non-ASCII Unicode spaces into ' ' and then strips only ASCII spaces, so
// \x1c-\x1f (spaces to str.isspace) are rejected there.
const INT_SPACE = '\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** The strip `int(text, base)` applies. */
export function intStrip(s: string): string {
  return stripBy(s, INT_SPACE_CHAR);
}
const INT_SPACE_CHAR = new RegExp(`^[${INT_SPACE}]$`);
