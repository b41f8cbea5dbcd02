// A Python value as a JSON decoder hands it to a worker (`json.loads` plus the type hooks of
// potatoq's serializer or kombu's), modelled closely enough to re-encode it byte for byte
// (potatoq's `dumps` in lib/potatoq/dumps.ts, kombu's in lib/celery-protocol).
import type { IsoDate, IsoTime } from './isodate';
import type { JsonNode } from './json';
import type { PyDecimal } from './pydecimal';
import type { ValueNote } from '@/lib/brokers/typed-value';

export type PyVal =
  | { k: 'none' }
  | { k: 'bool'; v: boolean }
  | { k: 'int'; text: string }
  | { k: 'float'; v: number }
  | { k: 'str'; v: string }
  | { k: 'list'; items: PyVal[] }
  /** `note`: why the decoder kept it a plain dict although it looks typed (e.g. a tag it does
   *  not know), in the words of the system whose decoder it is. */
  | { k: 'dict'; entries: Array<[string, PyVal]>; note?: ValueNote }
  | { k: 'datetime'; date: IsoDate; time: IsoTime }
  | { k: 'date'; date: IsoDate }
  | { k: 'time'; time: IsoTime }
  | { k: 'timedelta'; us: bigint }
  | { k: 'uuid'; hex: string }
  | { k: 'decimal'; dec: PyDecimal }
  | { k: 'bytes'; data: Uint8Array }
  | { k: 'set'; items: PyVal[] };

/** `type(x).__name__`, as `_not_ours` prints it. */
export function pyTypeName(v: PyVal): string {
  switch (v.k) {
    case 'none':
      return 'NoneType';
    case 'uuid':
      return 'UUID';
    case 'decimal':
      return 'Decimal';
    case 'list':
    case 'dict':
    case 'bool':
    case 'int':
    case 'float':
    case 'str':
    case 'datetime':
    case 'date':
    case 'time':
    case 'timedelta':
    case 'bytes':
    case 'set':
      return v.k;
    default: {
      const never: never = v;
      return never;
    }
  }
}

const p2 = (n: number) => String(n).padStart(2, '0');

export function isoDate(d: IsoDate): string {
  return `${String(d.year).padStart(4, '0')}-${p2(d.month)}-${p2(d.day)}`;
}

/** `timezone.utcoffset` formatting of isoformat: `+05:30`, `-00:00:01.000001`. */
export function isoOffset(us: number): string {
  const sign = us < 0 ? '-' : '+';
  let a = Math.abs(us);
  const frac = a % 1_000_000;
  a = (a - frac) / 1_000_000;
  const hh = Math.floor(a / 3600);
  const mm = Math.floor((a % 3600) / 60);
  const ss = a % 60;
  let out = `${sign}${p2(hh)}:${p2(mm)}`;
  if (ss || frac) out += `:${p2(ss)}`;
  if (frac) out += `.${String(frac).padStart(6, '0')}`;
  return out;
}

export function isoTime(t: IsoTime): string {
  let out = `${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)}`;
  if (t.us) out += `.${String(t.us).padStart(6, '0')}`;
  if (t.tz !== null) out += isoOffset(t.tz);
  return out;
}

export function uuidText(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `timedelta.total_seconds()`: microseconds / 10**6, correctly rounded like Python's int division. */
export function totalSeconds(us: bigint): number {
  const neg = us < 0n;
  const a = (neg ? -us : us).toString().padStart(7, '0');
  return Number(`${neg ? '-' : ''}${a.slice(0, -6)}.${a.slice(-6)}`);
}

// Python's encoder with ensure_ascii=False escapes only these.
const ESC = /[\u0000-\u001f"\\]/g;
const ESC_MAP: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
export function pyJsonString(s: string): string {
  return `"${s.replace(ESC, (c) => ESC_MAP[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/**
 * JSON tree → Python value, as `json.loads` builds it bottom-up: every object, once its values
 * are converted, goes through `onObject` (Python's `object_hook`).
 */
export function toPy(n: JsonNode, onObject: (entries: Array<[string, PyVal]>) => PyVal): PyVal {
  switch (n.k) {
    case 'null':
      return { k: 'none' };
    case 'bool':
      return { k: 'bool', v: n.v };
    case 'int':
      return { k: 'int', text: n.text };
    case 'float':
      return { k: 'float', v: n.v };
    case 'str':
      return { k: 'str', v: n.v };
    case 'arr':
      return { k: 'list', items: n.items.map((x) => toPy(x, onObject)) };
    case 'obj':
      return onObject(n.entries.map(([key, x]) => [key, toPy(x, onObject)]));
  }
}

/** Plain JSON → Python value with no tag decoding (what `json.loads` gives). */
export const plainPy = (n: JsonNode): PyVal => toPy(n, (entries) => ({ k: 'dict', entries }));
