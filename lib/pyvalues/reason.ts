// A dead letter's one-line reason, for every system whose reasons are Python tracebacks: the
// rule of the REASON column of `potatoq dead list` (cli.py 26.1a8), Python string semantics:
//   reason = (e.get("reason") or "").strip().splitlines()
//   why = reason[-1] if reason else ""
//   why = why if len(why) <= 70 else why[:69] + "…"

import { PY_SPACE } from './digits';
import { pairSafeEnd } from '@/lib/text/cut';
import { ownCopy } from '@/lib/text/own';

// str.splitlines() boundaries, as Python defines them. Every one of them is also Python
// whitespace, so a stripped reason never ends on one: its last line starts after the last
// boundary character (a "\r\n" pair included), and nothing before that is read.
const PY_LINE_CHARS = new Set([0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029]);
const SPACE_CHAR = new RegExp(`[${PY_SPACE}]`);
const isSpace = (s: string, i: number) => SPACE_CHAR.test(s.charAt(i));

/** Where the stripped reason's last line starts and ends (UTF-16 indexes into `s`). */
function lastLine(s: string): [number, number] {
  // Python whitespace is all in the BMP, so stripping works on UTF-16 units.
  let end = s.length;
  while (end > 0 && isSpace(s, end - 1)) end--;
  let lead = 0;
  while (lead < end && isSpace(s, lead)) lead++;
  let start = end;
  while (start > lead && !PY_LINE_CHARS.has(s.charCodeAt(start - 1))) start--;
  return [start, end];
}

/** The last line of the stripped reason, for grouping letters by cause: uncut, or cut to `max`
 *  UTF-16 units (a pair never split) and ended with `…` where it is kept beyond one read. */
export function reasonSummaryFull(reason: string | null | undefined, max = Infinity): string {
  const s = reason ?? '';
  const [start, end] = lastLine(s);
  // A copy, not a view: a kept summary (the Celery result index keeps one per failure) would
  // otherwise keep the whole traceback alive.
  if (end - start <= max) return ownCopy(s.slice(start, end));
  const cut = Math.max(start, pairSafeEnd(s, start + Math.max(0, max - 1)));
  return ownCopy(`${s.slice(start, cut)}…`);
}

/** Exactly what the CLI prints: the last line, cut to 70 code points (69 + `…`). */
export function reasonSummary(reason: string | null | undefined): string {
  const s = reason ?? '';
  const [start, end] = lastLine(s);
  // A view of the line, read here only: what is returned is a copy of at most 70 code points.
  const why = s.slice(start, end);
  // 70 UTF-16 units are at most 70 code points: the common case needs no counting.
  if (why.length <= 70) return ownCopy(why);
  let cps = 0;
  let i = 0;
  for (; i < why.length && cps < 70; cps++) i += (why.codePointAt(i) as number) > 0xffff ? 2 : 1;
  if (i >= why.length) return ownCopy(why);
  // More than 70 code points: keep the first 69.
  let j = 0;
  for (let k = 0; k < 69; k++) j += (why.codePointAt(j) as number) > 0xffff ? 2 : 1;
  return ownCopy(`${why.slice(0, j)}…`);
}
