// A string that holds no reference to the text it was cut from. V8 represents a substring (a
// `slice`, a regex match, a trimmed line) as a view of its parent, which then lives as long as the
// substring does: a memoised one-line summary of a traceback keeps the whole traceback. Pure and
// client-safe.

/** `s`, copied into a string of its own when it could be a view of a longer one. */
export function ownCopy(s: string): string;
export function ownCopy(s: string | null): string | null;
export function ownCopy(s: string | null): string | null {
  // V8 copies substrings under 13 characters anyway; JSON's round trip builds a fresh string
  // (lone surrogates survive it: they are escaped and read back).
  return s === null || s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}
