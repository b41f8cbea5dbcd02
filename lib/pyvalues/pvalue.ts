// Python values → PValue (types.ts), the JSON-safe shape the browser renders. Bounded: deep
// nesting becomes `{t:'deep'}`, long strings and lists are cut (with the count cut), so a
// hostile 10 MB payload can't become a 10 MB DTO; the raw JSON stays available separately.
import { decimalToString } from './pydecimal';
import { pyFloatRepr, pyJsonFloat } from './pyfloat';
import { isoDate, isoTime, type PyVal, totalSeconds, uuidText } from './pyval';
import { b64encode } from './b64';

export interface PValueLimits {
  /** Containers deeper than this become `{t:'deep'}` (default 64). */
  maxDepth?: number;
  /** Characters kept per string (default 100,000). */
  maxString?: number;
  /** Items kept per list, set or dict (default 10,000). */
  maxItems?: number;
  /** Bytes of a bytes value kept as base64 (default 65,536). */
  maxBytes?: number;
}

const DEFAULTS: Required<PValueLimits> = { maxDepth: 64, maxString: 100_000, maxItems: 10_000, maxBytes: 65_536 };

/** Epoch milliseconds of a datetime; naive ones are read as UTC (the console says "naive"). */
function epochMs(v: Extract<PyVal, { k: 'datetime' }>): number | null {
  const { date: d, time: t } = v;
  const dt = new Date(Date.UTC(2000, d.month - 1, d.day, t.hour, t.minute, t.second, Math.floor(t.us / 1000)));
  dt.setUTCFullYear(d.year);
  return t.tz === null ? null : dt.getTime() - Math.trunc(t.tz / 1000);
}

export function pyToPValue(v: PyVal, limits: PValueLimits = {}, depth = 0): PValue {
  const l = { ...DEFAULTS, ...limits };
  const cut = <T>(xs: T[]): [T[], number | undefined] =>
    xs.length > l.maxItems ? [xs.slice(0, l.maxItems), xs.length - l.maxItems] : [xs, undefined];
  switch (v.k) {
    case 'none':
      return { t: 'null' };
    case 'bool':
      return { t: 'bool', v: v.v };
    case 'int':
      return { t: 'int', v: v.text };
    case 'float':
      return { t: 'float', v: pyJsonFloat(v.v) };
    case 'str':
      return v.v.length > l.maxString
        ? { t: 'str', v: v.v.slice(0, l.maxString), truncated: v.v.length - l.maxString }
        : { t: 'str', v: v.v };
    case 'list':
    case 'set': {
      if (depth >= l.maxDepth) return { t: 'deep', depth };
      const [items, truncated] = cut(v.items);
      const out = items.map((x) => pyToPValue(x, l, depth + 1));
      if (v.k === 'set') return { t: 'set', items: out };
      return truncated ? { t: 'list', items: out, truncated } : { t: 'list', items: out };
    }
    case 'dict': {
      if (depth >= l.maxDepth) return { t: 'deep', depth };
      const [entries, truncated] = cut(v.entries);
      const out: PValue = { t: 'dict', entries: entries.map(([k, x]) => [k, pyToPValue(x, l, depth + 1)]) };
      if (v.flag) out.flag = v.flag;
      if (truncated) out.truncated = truncated;
      return out;
    }
    case 'datetime':
      return { t: 'datetime', v: `${isoDate(v.date)}T${isoTime(v.time)}`, aware: v.time.tz !== null, epochMs: epochMs(v) };
    case 'date':
      return { t: 'date', v: isoDate(v.date) };
    case 'time':
      return { t: 'time', v: isoTime(v.time) };
    case 'timedelta':
      return { t: 'timedelta', seconds: pyFloatRepr(totalSeconds(v.us)) };
    case 'uuid':
      return { t: 'uuid', v: uuidText(v.hex) };
    case 'decimal':
      return { t: 'decimal', v: decimalToString(v.dec) };
    case 'bytes':
      return { t: 'bytes', base64: b64encode(v.data.subarray(0, l.maxBytes)), size: v.data.length };
    default: {
      const never: never = v;
      return never;
    }
  }
}

/**
 * A decoded JSON value, JSON-safe for the browser. Numbers are kept as the exact text the
 * producer wrote (big integers, NaN, Infinity), never as JS numbers.
 *
 * `dict.flag` marks objects that look like tagged values but are plain data for potatoq:
 * - `unknown-tag`: `__potatoq__` with a tag this potatoq does not know (a newer producer?)
 * - `malformed-tag`: a known tag whose value potatoq's decoder rejects (kept as the dict)
 * - `legacy-tag`: `{"__type__", "__value__"}` written by an older potatoq (before the
 *   `__potatoq__` tags); today's workers receive it as a plain dict.
 */
export type PValue =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: string }
  | { t: 'float'; v: string }
  | { t: 'str'; v: string; truncated?: number }
  | { t: 'list'; items: PValue[]; truncated?: number }
  | { t: 'dict'; entries: Array<[string, PValue]>; flag?: 'unknown-tag' | 'malformed-tag' | 'legacy-tag'; truncated?: number }
  | { t: 'datetime'; v: string; aware: boolean; epochMs: number | null }
  | { t: 'date'; v: string }
  | { t: 'time'; v: string }
  | { t: 'timedelta'; seconds: string }
  | { t: 'uuid'; v: string }
  | { t: 'decimal'; v: string }
  | { t: 'bytes'; base64: string; size: number }
  | { t: 'set'; items: PValue[] }
  /** Nesting deeper than the console renders; the raw JSON still has it. */
  | { t: 'deep'; depth: number };
