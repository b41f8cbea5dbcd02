// An error message with what varies per task replaced by placeholders, in time linear in the
// message and on a bounded prefix of it: anyone whose text reaches an exception message
// controls this input, and the groups read it for thousands of letters on every poll.
//
// One pass splits the prefix into strings, runs (text between spaces, quotes and brackets) and
// delimiters; each run is then matched as a whole, or in pieces split at `=`, `:`, `,`, `;`, `|`,
// or word by word, against anchored rules (`^…$`, no nested quantifiers over overlapping
// classes): every rule runs at most a fixed number of times per character. `Work.ops` counts
// the characters each step looks at, so tests can check the bound without a clock.
// Pure and client-safe.

import { pairSafeEnd } from '@/lib/text/cut';
import { classify, type Work } from './values';

export type { Work } from './values';

/** Only this many UTF-16 units of a message are normalised; the pattern ends with `…` beyond. */
export const MESSAGE_PREFIX_CHARS = 2048;

// A number at a position (sticky): `-5`, `3.5`, `1,234.56`, `1e-9`.
const NUMBER_AT = /[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?/iy;
const isWord = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** Word by word: letters/digits/`_` words matched whole; a number that starts a word is `<n>`
 *  with its decimals (`2nd` -> `<n>nd`); digits after letters stay (`utf8`, `v2`). */
function normaliseWords(piece: string, work: Work): string {
  let out = '';
  let i = 0;
  while (i < piece.length) {
    const c = piece[i]!;
    let num: string | undefined;
    if (/[-+\d]/.test(c) && !isWord(piece[i - 1])) {
      NUMBER_AT.lastIndex = i;
      num = NUMBER_AT.exec(piece)?.[0];
      work.ops += num?.length ?? 1;
    }
    if (!isWord(c)) {
      out += num ? '<n>' : c;
      i += num ? num.length : 1;
      work.ops++;
      continue;
    }
    let j = i;
    while (j < piece.length && isWord(piece[j])) j++;
    work.ops += j - i;
    // A decimal number spans `.` and `,`: one value.
    if (num && i + num.length > j) {
      out += '<n>';
      i += num.length;
      continue;
    }
    const whole = classify(piece.slice(i, j), work);
    if (whole) out += whole;
    else if (num) {
      out += '<n>';
      j = i + num.length;
    } else out += piece.slice(i, j);
    i = j;
  }
  return out;
}

/** How many of the run's last characters are sentence punctuation (`.`, `,`, `:`, ...). */
function trailingPunct(run: string): number {
  let k = run.length;
  while (k > 0 && '.,:;!?'.includes(run[k - 1]!)) k--;
  return run.length - k;
}

/** A run of text between spaces, quotes and brackets. */
function normaliseRun(run: string, work: Work): string {
  const t = trailingPunct(run);
  const keep = t > 0 && t < run.length && !run.startsWith('.') ? t : 0;
  const body = run.slice(0, run.length - keep);
  const rest = run.slice(run.length - keep);
  const whole = classify(body, work);
  if (whole) return whole + rest;
  // Pieces: `path=/srv/x/y`, `/srv/app.py:12`, `host=db-7.prod:5432`.
  let out = '';
  for (const part of body.split(/([=:,;|])/)) {
    work.ops += part.length + 1;
    if (part.length === 1 && /[=:,;|]/.test(part)) out += part;
    else out += classify(part, work) ?? normaliseWords(part, work);
  }
  return out + rest;
}

const RUN_END = new Set([' ', '\t', '\n', '\r', '\v', '\f', "'", '"', '(', ')', '[', ']', '{', '}', '<', '>']);
const URL_END = new Set([' ', '\t', '\n', '\r', '\v', '\f', "'", '"', '<', '>', ')', ']']);
const isSpace = (c: string) => /\s/.test(c);

/** A quoted string starting at `i` (Python repr style, backslash escapes, one line): its end, or
 *  -1. A scan that finds no end records where it stopped in `open`: quotes of that kind before
 *  that point are not scanned again (`'\\'\\'…` would otherwise rescan from every quote). */
function quotedEnd(s: string, i: number, work: Work, open: Record<string, number>): number {
  const q = s[i]!;
  if (i < (open[q] ?? -1)) return -1;
  let j = i + 1;
  while (j < s.length) {
    work.ops++;
    const c = s[j]!;
    if (c === '\\' && s[j + 1] !== undefined && s[j + 1] !== '\n') j += 2;
    else if (c === '\\' || c === '\n') break;
    else if (c === q) {
      if (!isWord(s[j + 1])) return j + 1;
      break;
    } else j++;
  }
  open[q] = j;
  return -1;
}

// Double-quoted names after these words are SQL identifiers (PostgreSQL's `relation "orders"
// does not exist`, `violates unique constraint "users_email_key"`): a different name is a
// different fault, so they stay.
const SQL_NAME_BEFORE =
  /(?:^|[^\w])(?:constraint|relation|table|column|index|database|role|schema|sequence|view|function|extension|trigger)$/i;
const SQL_NAME = /^[\w$.]{1,63}$/;

/** The message with what varies per task replaced by `<str>`, `<path>`, `<uuid>`, `<n>`, ... */
export function normaliseMessage(message: string, work: Work = { ops: 0 }): string {
  let s = message;
  let cut = '';
  if (s.length > MESSAGE_PREFIX_CHARS) {
    s = s.slice(0, pairSafeEnd(s, MESSAGE_PREFIX_CHARS));
    cut = ' …';
  }
  return normaliseText(s, work, 0) + cut;
}

/** The first index from `i` whose character fails `keep`. */
function skipWhile(s: string, i: number, keep: (c: string) => boolean, work: Work): number {
  let j = i;
  while (j < s.length && keep(s[j]!)) j++;
  work.ops += j - i;
  return j;
}

function normaliseText(s: string, work: Work, depth: number): string {
  const out: string[] = [];
  const open: Record<string, number> = {};
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    work.ops++;
    if (isSpace(c)) {
      i = skipWhile(s, i, isSpace, work);
      out.push(' ');
      continue;
    }
    if ((c === "'" || c === '"') && !isWord(s[i - 1]) && s[i - 1] !== "'" && s[i - 1] !== '"') {
      const end = quotedEnd(s, i, work, open);
      if (end > 0) {
        out.push(quoted(s, i, end, out, work, depth));
        i = end;
        continue;
      }
    }
    if (RUN_END.has(c)) {
      out.push(c);
      i++;
      continue;
    }
    let j = skipWhile(s, i, (x) => !RUN_END.has(x), work);
    // A URL runs on through brackets and the like, up to a space, a quote or a closing bracket.
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(s.slice(i, Math.min(j, i + 40)));
    if (scheme) {
      j = skipWhile(s, j, (x) => !URL_END.has(x), work);
      const t = trailingPunct(s.slice(i, j));
      out.push('<url>' + s.slice(j - t, j));
      i = j;
      continue;
    }
    out.push(normaliseRun(s.slice(i, j), work));
    i = j;
  }
  work.ops += out.length;
  return tidy(out.join('').trim(), work);
}

/** A quoted string from `i` to `end` (quotes included): `<str>`, but an SQL identifier stays,
 *  and an exception's repr inside the message (`NewConnectionError('…: [Errno 111] Connection
 *  refused')`) is normalised like the message itself, one level deep. */
function quoted(s: string, i: number, end: number, out: string[], work: Work, depth: number): string {
  const inner = s.slice(i + 1, end - 1);
  const q = s[i]!;
  work.ops += inner.length + (out.at(-2)?.length ?? 0);
  if (q === '"' && out.at(-1) === ' ' && SQL_NAME.test(inner) && SQL_NAME_BEFORE.test(out.at(-2) ?? '')) return s.slice(i, end);
  if (depth < 1 && s[i - 1] === '(' && isWord(s[i - 2]) && inner.includes(' ')) return q + normaliseText(inner, work, depth + 1) + q;
  return '<str>';
}

// On the joined pattern, whose values are placeholders by now: a date and a time side by side
// are one time; SQL and Python parameter lists of any length are one list.
const ELEMENT = '(?:<(?:n|str|uuid|hex|id|time|email|ip|dur|pct)>|NULL|None|True|False|null|true|false)';
const LIST = new RegExp(`\\(${ELEMENT}(?:, ?${ELEMENT})+,?\\)|((?:\\bIN|\\bVALUES|\\bANY) ?)\\(${ELEMENT},?\\)`, 'gi');

function tidy(s: string, work: Work): string {
  work.ops += s.length * 3;
  return s
    .replace(/<time> <time>/g, '<time>')
    .replace(LIST, (_m, kw: string | undefined) => `${kw ?? ''}(<list>)`)
    .replace(/ {2,}/g, ' ');
}
