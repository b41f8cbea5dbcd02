// The lexical half of the parser in json.ts: strings, numbers and Python's error texts,
// mirroring `scanstring_unicode` and `_match_number_unicode` of CPython 3.11's `_json.c`.
import { normalizeIntText } from './pyfloat';

/** A parsed JSON value (json.ts builds the tree; the scanner makes its numbers). */
export type JsonNode =
  | { k: 'null' }
  | { k: 'bool'; v: boolean }
  /** Numbers keep the literal as written (`-0` excepted: Python's int is 0). */
  | { k: 'int'; text: string }
  /** `v` is what Python's float() makes of `text` (both are kept: v decides re-encoding). */
  | { k: 'float'; v: number; text: string }
  | { k: 'str'; v: string }
  | { k: 'arr'; items: JsonNode[] }
  | { k: 'obj'; entries: Array<[string, JsonNode]> };

/** Python's `JSONDecodeError`/`ValueError`/`RecursionError` text, as `str(exc)` gives it. */
export class PyJsonError extends Error {
  constructor(
    message: string,
    readonly pyType: 'JSONDecodeError' | 'ValueError' | 'RecursionError' = 'JSONDecodeError',
  ) {
    super(message);
    this.name = 'PyJsonError';
  }
}

const INT_MAX_STR_DIGITS = 4300;

function codePointIndex(s: string, i: number): number {
  let n = i;
  for (let j = 1; j < i; j++) {
    const c = s.charCodeAt(j);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const p = s.charCodeAt(j - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}

export function fail(msg: string, s: string, pos: number): never {
  const cpos = codePointIndex(s, pos);
  const nl = s.lastIndexOf('\n', pos - 1);
  const lineno = nl < 0 ? 1 : (s.slice(0, pos).match(/\n/g)?.length ?? 0) + 1;
  const colno = nl < 0 ? cpos + 1 : cpos - codePointIndex(s, nl);
  throw new PyJsonError(`${msg}: line ${lineno} column ${colno} (char ${cpos})`);
}

export const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function hex4(s: string, from: number): number {
  let v = 0;
  for (let i = from; i < from + 4; i++) {
    const d = parseInt(s[i] ?? 'x', 16);
    if (Number.isNaN(d)) return -1;
    v = v * 16 + d;
  }
  return v;
}

// Scanners return their value and leave the index after it here (no tuple per token: a 10 MB
// payload has a million tokens and the garbage collector notices).
export const cursor = { at: 0 };

/** `scanstring_unicode`: `end` is just after the opening quote. */
export function scanString(s: string, end: number): string {
  const begin = end - 1;
  const len = s.length;
  let out = '';
  for (;;) {
    let next = end;
    let c = 0;
    for (; next < len; next++) {
      c = s.charCodeAt(next);
      if (c === 0x22 || c === 0x5c) break;
      if (c <= 0x1f) fail('Invalid control character at', s, next);
    }
    if (next >= len) fail('Unterminated string starting at', s, begin);
    out += s.slice(end, next);
    next++;
    if (c === 0x22) {
      cursor.at = next;
      return out;
    }
    if (next === len) fail('Unterminated string starting at', s, begin);
    const e = s[next] as string;
    if (e !== 'u') {
      const ch = ESCAPES[e];
      if (ch === undefined) fail('Invalid \\escape', s, next - 1);
      out += ch;
      end = next + 1;
      continue;
    }
    next++;
    end = next + 4;
    if (end >= len) fail('Invalid \\uXXXX escape', s, next - 1);
    const u = hex4(s, next);
    if (u < 0) fail('Invalid \\uXXXX escape', s, end - 5);
    if (u >= 0xd800 && u <= 0xdbff && end + 6 < len && s[end] === '\\' && s[end + 1] === 'u') {
      const u2 = hex4(s, end + 2);
      if (u2 < 0) fail('Invalid \\uXXXX escape', s, end + 1);
      if (u2 >= 0xdc00 && u2 <= 0xdfff) {
        out += String.fromCharCode(u, u2);
        end += 6;
        continue;
      }
    }
    out += String.fromCharCode(u);
  }
}

/** `_match_number_unicode`. */
export function matchNumber(s: string, start: number): JsonNode {
  const n = s.length;
  let i = start;
  if (s.charCodeAt(i) === 0x2d) i++;
  const c = s.charCodeAt(i);
  if (c >= 0x31 && c <= 0x39) {
    i++;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
  } else if (c === 0x30) i++;
  else fail('Expecting value', s, start);
  let isFloat = false;
  if (i < n - 1 && s.charCodeAt(i) === 0x2e && isDigit(s.charCodeAt(i + 1))) {
    isFloat = true;
    i += 2;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
  }
  if (i < n - 1 && (s.charCodeAt(i) === 0x65 || s.charCodeAt(i) === 0x45)) {
    const eStart = i;
    i++;
    if (i < n - 1 && (s.charCodeAt(i) === 0x2d || s.charCodeAt(i) === 0x2b)) i++;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (isDigit(s.charCodeAt(i - 1))) isFloat = true;
    else i = eStart;
  }
  const text = s.slice(start, i);
  cursor.at = i;
  if (isFloat) return { k: 'float', v: Number(text), text };
  const digits = text.length - (text.charCodeAt(0) === 0x2d ? 1 : 0);
  if (digits > INT_MAX_STR_DIGITS) {
    throw new PyJsonError(
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
      'ValueError',
    );
  }
  return { k: 'int', text: normalizeIntText(text) };
}
