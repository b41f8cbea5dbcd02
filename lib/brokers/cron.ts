// Cron expressions as QueueFlow 0.6.0 evaluates them (its `cron` crate 0.17, in UTC): 5 fields
// (`minute hour day-of-month month day-of-week`, a seconds field of 0 prepended), or 6/7 with
// leading seconds (and a trailing year), or `@yearly`/`@monthly`/`@weekly`/`@daily`/`@hourly`.
// Two differences from Vixie cron an operator must be told, both observed on the real server
// (docs/systems/queueflow.md): days of the week are 1-7 from **Sunday** (1 = Sunday, 7 =
// Saturday; 0 is refused), and a day of the month and a day of the week given together must
// **both** match. Client-safe: no server imports.

export interface CronFields {
  seconds: number[];
  minutes: number[];
  hours: number[];
  dom: number[];
  months: number[];
  /** 1 = Sunday … 7 = Saturday (the crate's ordinals). */
  dow: number[];
  /** Which fields were `*` (or `?`): a day field left open matches every day. */
  all: { dom: boolean; dow: boolean };
  /** The expression had a seconds field (6/7 fields). */
  hasSeconds: boolean;
  source: string;
}

export type CronParse = { ok: true; fields: CronFields } | { ok: false; error: string };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface Unit {
  name: string;
  min: number;
  max: number;
  names?: string[];
  any?: boolean;
}
const SEC: Unit = { name: 'seconds', min: 0, max: 59 };
const MIN: Unit = { name: 'minutes', min: 0, max: 59 };
const HOUR: Unit = { name: 'hours', min: 0, max: 23 };
const DOM: Unit = { name: 'days of the month', min: 1, max: 31, any: true };
const MON: Unit = { name: 'months', min: 1, max: 12, names: MONTHS };
const DOW: Unit = { name: 'days of the week', min: 1, max: 7, names: DAYS, any: true };
const YEAR: Unit = { name: 'years', min: 1970, max: 2100 };

const range = (a: number, b: number, step = 1): number[] => {
  const out: number[] = [];
  for (let v = a; v <= b; v += step) out.push(v);
  return out;
};

function value(text: string, u: Unit): number {
  const named = u.names?.indexOf(text.toLowerCase()) ?? -1;
  // Names are 0-based in the list; the crate's ordinals start at 1 (SUN = 1, JAN = 1).
  if (named >= 0) return named + 1;
  if (!/^\d{1,4}$/.test(text)) throw new Error(`"${text}" is not a number or a name of ${u.name}`);
  const v = Number(text);
  if (v < u.min || v > u.max)
    throw new Error(
      u === DOW && v === 0
        ? 'days of the week are 1-7 from Sunday here (1 = Sunday, 7 = Saturday); 0 is not one'
        : `${u.name} must be within ${u.min}-${u.max} ("${text}")`,
    );
  return v;
}

function field(text: string, u: Unit): { values: number[]; all: boolean } {
  if (text === '*' || (u.any && text === '?')) return { values: range(u.min, u.max), all: true };
  const set = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(part);
    if (!m) throw new Error(`"${part}" is not a value, range or step of ${u.name}`);
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) throw new Error(`a step of ${u.name} must be at least 1`);
    const base = m[1]!;
    let lo: number;
    let hi: number;
    if (base === '*') [lo, hi] = [u.min, u.max];
    else if (base.includes('-')) {
      const [a, b, ...rest] = base.split('-');
      if (rest.length || a === undefined || b === undefined) throw new Error(`"${base}" is not a range of ${u.name}`);
      [lo, hi] = [value(a, u), value(b, u)];
      if (lo > hi) throw new Error(`the range "${base}" of ${u.name} runs backwards`);
    } else {
      lo = value(base, u);
      hi = m[2] === undefined ? lo : u.max;
    }
    for (const v of range(lo, hi, step)) set.add(v);
  }
  return { values: [...set].sort((a, b) => a - b), all: false };
}

const SHORTHAND: Record<string, string> = {
  '@yearly': '0 0 0 1 1 *',
  '@annually': '0 0 0 1 1 *',
  '@monthly': '0 0 0 1 * *',
  '@weekly': '0 0 0 * * 1',
  '@daily': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
};

/** Parses `expr` as QueueFlow does; an error names the field and why, in words. */
export function parseCron(expr: string): CronParse {
  const source = expr.trim();
  const parts = (SHORTHAND[source.toLowerCase()] ?? source).split(/\s+/).filter(Boolean);
  if (parts.length < 5 || parts.length > 7)
    return { ok: false, error: `a cron expression has 5 fields (minute hour day-of-month month day-of-week); this has ${parts.length}` };
  const hasSeconds = parts.length > 5 && !SHORTHAND[source.toLowerCase()];
  const six = parts.length === 5 ? ['0', ...parts] : parts;
  try {
    const dom = field(six[3]!, DOM);
    const dow = field(six[5]!, DOW);
    if (six[6] !== undefined) field(six[6], YEAR);
    return {
      ok: true,
      fields: {
        seconds: field(six[0]!, SEC).values,
        minutes: field(six[1]!, MIN).values,
        hours: field(six[2]!, HOUR).values,
        dom: dom.values,
        months: field(six[4]!, MON).values,
        dow: dow.values,
        all: { dom: dom.all, dow: dow.all },
        hasSeconds,
        source,
      },
    };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** The next `n` firings strictly after `after` (UTC), searching at most `years` ahead. */
export function nextFirings(f: CronFields, after: Date, n = 1, years = 5): Date[] {
  const out: Date[] = [];
  const start = Math.floor(after.getTime() / 1000) + 1;
  const day0 = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  for (let d = 0; d < years * 366 && out.length < n; d++) {
    const day = new Date(day0 + d * 86_400_000);
    if (!f.months.includes(day.getUTCMonth() + 1)) continue;
    // Both day fields must match where both are given (the crate's rule, not Vixie's "either").
    if (!f.dom.includes(day.getUTCDate())) continue;
    if (!f.all.dow && !f.dow.includes(day.getUTCDay() + 1)) continue;
    for (const h of f.hours)
      for (const m of f.minutes)
        for (const s of f.seconds) {
          const t = day.getTime() / 1000 + h * 3600 + m * 60 + s;
          if (t >= start) {
            out.push(new Date(t * 1000));
            if (out.length >= n) return out;
          }
        }
  }
  return out;
}

/** The shortest gap between two firings among the next few: what "fires every second" is judged by. */
export function shortestGapSeconds(f: CronFields, from = new Date()): number | null {
  const next = nextFirings(f, from, 6);
  let gap: number | null = null;
  for (let i = 1; i < next.length; i++) {
    const g = (next[i]!.getTime() - next[i - 1]!.getTime()) / 1000;
    gap = gap === null ? g : Math.min(gap, g);
  }
  return gap;
}

/** How many firings fall in (from, to]: a late firing stands for all of them (catch-up collapse). */
export function firingsBetween(f: CronFields, from: Date, to: Date, cap = 1000): number {
  let count = 0;
  let at = from;
  while (count < cap) {
    const [next] = nextFirings(f, at, 1);
    if (!next || next > to) break;
    count++;
    at = next;
  }
  return count;
}

const pad = (v: number) => String(v).padStart(2, '0');
const list = (xs: string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** `values` as a run or a list, in words: "Sunday through Thursday", "1, 15 and 28". */
function spans(values: number[], name: (v: number) => string): string {
  const runs: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    runs.push(
      j - i >= 2
        ? `${name(values[i]!)} through ${name(values[j]!)}`
        : range(i, j)
            .map((k) => name(values[k]!))
            .join(', '),
    );
    i = j + 1;
  }
  return list(runs.join(', ').split(', '));
}

/** An even step over the whole unit ("every 5 minutes"), or null. */
function everyStep(values: number[], min: number, max: number): number | null {
  if (values.length < 2 || values[0] !== min) return null;
  const step = values[1]! - values[0]!;
  return values.every((v, i) => v === min + i * step) && max - values[values.length - 1]! < step ? step : null;
}

/** The expression in words, in UTC, with QueueFlow's day-of-week numbering. */
export function cronWords(f: CronFields): string {
  const full = (xs: number[], a: number, b: number) => xs.length === b - a + 1;
  let time: string;
  const secStep = everyStep(f.seconds, 0, 59);
  const minStep = everyStep(f.minutes, 0, 59);
  const hourAll = full(f.hours, 0, 23);
  if (f.hasSeconds && f.seconds.length > 1) {
    time = secStep === 1 ? 'every second' : secStep ? `every ${secStep} seconds` : `at seconds ${spans(f.seconds, String)} of every minute`;
    if (!full(f.minutes, 0, 59) || !hourAll) time += ` (minutes ${spans(f.minutes, String)}, hours ${spans(f.hours, pad)})`;
  } else if (hourAll && f.minutes.length > 1 && minStep) {
    time = minStep === 1 ? 'every minute' : `every ${minStep} minutes`;
  } else if (hourAll) {
    time = `at minute ${spans(f.minutes, String)} of every hour`;
  } else if (f.hours.length * f.minutes.length <= 6) {
    const sec = f.hasSeconds && f.seconds[0] ? `:${pad(f.seconds[0])}` : '';
    time = `at ${list(f.hours.flatMap((h) => f.minutes.map((m) => `${pad(h)}:${pad(m)}${sec}`)))}`;
  } else {
    time = `at minute ${spans(f.minutes, String)} of hours ${spans(f.hours, pad)}`;
  }
  const days: string[] = [];
  if (!f.all.dom) days.push(`on day ${spans(f.dom, String)} of the month`);
  if (!f.all.dow) days.push(`on ${spans(f.dow, (d) => DAY_NAMES[d - 1] ?? String(d))}`);
  const when = days.length === 2 ? `${days[0]}, only when that is a ${days[1]!.slice(3)}` : (days[0] ?? '');
  const months = full(f.months, 1, 12) ? '' : `in ${spans(f.months, (m) => MONTH_NAMES[m - 1] ?? String(m))}`;
  return [time, when, months, 'UTC'].filter(Boolean).join(' ');
}
