// The REASON column of `potatoq dead list` (cli.py 26.1a8):
//   reason = (e.get("reason") or "").strip().splitlines()
//   why = reason[-1] if reason else ""
//   why = why if len(why) <= 70 else why[:69] + "…"

import { pyStrip } from './digits';

// str.splitlines() boundaries, as Python defines them.
const PY_LINES = /\r\n|[\n\r\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029]/;

/** The last line of the stripped reason, uncut: for grouping letters by cause. */
export function reasonSummaryFull(reason: string | null | undefined): string {
  const lines = pyStrip(reason ?? '').split(PY_LINES);
  return lines[lines.length - 1] ?? '';
}

/** Exactly what the CLI prints: the last line, cut to 70 code points (69 + `…`). */
export function reasonSummary(reason: string | null | undefined): string {
  const why = [...reasonSummaryFull(reason)];
  return why.length <= 70 ? why.join('') : `${why.slice(0, 69).join('')}…`;
}
