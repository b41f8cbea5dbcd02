// Cutting text by UTF-16 units without leaving half of a surrogate pair. Pure and client-safe.

/** `end`, one unit earlier when the unit before it is a high surrogate: `s.slice(start, end)`
 *  then never ends in half of a pair. */
export function pairSafeEnd(s: string, end: number): number {
  const c = s.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}
