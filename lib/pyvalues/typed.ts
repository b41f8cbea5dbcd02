// Python values → the console's TypedValue (lib/brokers/typed-value.ts), the JSON-safe shape
// the API and the browser get. Bounded: deep nesting becomes `{t:'deep'}`, long strings and
// lists are cut (with the count cut), so a hostile 10 MB payload can't become a 10 MB DTO; the
// raw JSON stays available separately. A dict's `note` (why it is plain data although it
// looks typed) is the decoder's, carried as it is.
import { decimalToString } from './pydecimal';
import { pyFloatRepr, pyJsonFloat } from './pyfloat';
import { isoDate, isoTime, type PyVal, totalSeconds, uuidText } from './pyval';
import { b64encode } from './b64';
import type { TypedValue } from '@/lib/brokers/typed-value';

export interface TypedLimits {
  /** Containers deeper than this become `{t:'deep'}` (default 64). */
  maxDepth?: number;
  /** Characters kept per string (default 100,000). */
  maxString?: number;
  /** Items kept per list, set or dict (default 10,000). */
  maxItems?: number;
  /** Bytes of a bytes value kept as base64 (default 65,536). */
  maxBytes?: number;
}

const DEFAULTS: Required<TypedLimits> = { maxDepth: 64, maxString: 100_000, maxItems: 10_000, maxBytes: 65_536 };

/** Epoch milliseconds of a datetime; naive ones are read as UTC (the console says "naive"). */
function epochMs(v: Extract<PyVal, { k: 'datetime' }>): number | null {
  const { date: d, time: t } = v;
  const dt = new Date(Date.UTC(2000, d.month - 1, d.day, t.hour, t.minute, t.second, Math.floor(t.us / 1000)));
  dt.setUTCFullYear(d.year);
  return t.tz === null ? null : dt.getTime() - Math.trunc(t.tz / 1000);
}

export function pyToTyped(v: PyVal, limits: TypedLimits = {}, depth = 0): TypedValue {
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
      const out = items.map((x) => pyToTyped(x, l, depth + 1));
      if (v.k === 'set') return { t: 'set', items: out };
      return truncated ? { t: 'list', items: out, truncated } : { t: 'list', items: out };
    }
    case 'dict': {
      if (depth >= l.maxDepth) return { t: 'deep', depth };
      const [entries, truncated] = cut(v.entries);
      const out: TypedValue = { t: 'dict', entries: entries.map(([k, x]) => [k, pyToTyped(x, l, depth + 1)]) };
      if (v.note) out.note = v.note;
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
