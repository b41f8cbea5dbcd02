// The console's typed editor: an edited TypedValue (what the edit-and-replay form sends) to the
// Python value a worker would receive, checked the way that worker's decoder checks it: a value
// it would receive as something else (a datetime "tomorrow 9am" stays a plain dict) is refused
// with the field named. Shared by the systems whose workers are Python (potatoq, Celery) and
// QueueFlow (JSON, whose typed values are written as text). Client-safe.
import type { TypedValue } from '@/lib/brokers/typed-value';
import { constructTyped, TYPED_KINDS, type Crash } from './construct';
import { parseJson, PyJsonError } from './json';
import { type PyVal, toPy } from './pyval';

/** The key of the typed objects `typedToPy` writes and reads back: not a key an operator can
 *  type in the form (it starts with a NUL), so an edited dict is never taken for a typed value. */
const MARK = '\u0000typed';

/** A typed object `{MARK: kind, "v": value}` built by its constructor; any other dict as it is. */
function construct(entries: Array<[string, PyVal]>, ctx: Crash): PyVal {
  const dict: PyVal = { k: 'dict', entries };
  if (entries.length !== 2) return dict;
  const kind = entries.find((e) => e[0] === MARK)?.[1];
  const v = entries.find((e) => e[0] === 'v')?.[1];
  if (kind?.k !== 'str' || v === undefined || !TYPED_KINDS.has(kind.v)) return dict;
  return constructTyped(kind.v, v, ctx) ?? dict;
}

export class EditError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'EditError';
  }
}

const WHAT: Record<string, string> = {
  datetime: 'an ISO 8601 date-time (2026-12-01T09:00:00+00:00)',
  date: 'an ISO date (2026-12-01)',
  time: 'an ISO time (09:30:00)',
  timedelta: 'a number of seconds',
  uuid: 'a UUID',
  decimal: 'a decimal number (12.50)',
  bytes: 'base64 text',
  set: 'a set of hashable values (no lists, dicts or sets inside)',
};

/**
 * The value as JSON text with the typed kinds as `{key: kind, "v": value}` objects (potatoq's
 * wire format when `key` is `__potatoq__`). Numbers are checked and written as Python writes
 * them; a cut value (`truncated`, `deep`) cannot be edited.
 */
export function typedToJson(v: TypedValue, field: string, key: string = MARK): string {
  const tag = (t: string, x: string) => `{${JSON.stringify(key)}:${JSON.stringify(t)},"v":${x}}`;
  switch (v.t) {
    case 'null':
      return 'null';
    case 'bool':
      return v.v ? 'true' : 'false';
    case 'int':
      if (!/^-?\d+$/.test(v.v.trim())) throw new EditError(field, 'must be a whole number');
      return v.v.trim().replace(/^(-?)0+(\d)/, '$1$2');
    case 'float': {
      const s = v.v.trim();
      if (s === 'NaN' || s === 'Infinity' || s === '-Infinity') return s;
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) || !Number.isFinite(Number(s))) throw new EditError(field, 'must be a number');
      return String(Number(s)).includes('.') || /[eE]/.test(String(Number(s))) ? String(Number(s)) : `${Number(s)}.0`;
    }
    case 'str':
      if (v.truncated) throw new EditError(field, 'is too long to edit here (only its start was read)');
      return JSON.stringify(v.v);
    case 'list':
    case 'tuple':
      if ('truncated' in v && v.truncated) throw new EditError(field, 'has more items than were read; it cannot be edited here');
      return `[${v.items.map((x, i) => typedToJson(x, `${field}[${i}]`, key)).join(',')}]`;
    case 'dict':
      if (v.truncated) throw new EditError(field, 'has more keys than were read; it cannot be edited here');
      return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${typedToJson(x, `${field}.${k}`, key)}`).join(',')}}`;
    case 'datetime':
    case 'date':
    case 'time':
    case 'uuid':
    case 'decimal':
      return tag(v.t, JSON.stringify(v.v.trim()));
    case 'timedelta': {
      const s = v.seconds.trim();
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new EditError(field, `must be ${WHAT.timedelta}`);
      return tag('timedelta', s);
    }
    case 'bytes':
      return tag('bytes', JSON.stringify(v.base64.replace(/\s+/g, '')));
    case 'set':
      return tag('set', `[${v.items.map((x, i) => typedToJson(x, `${field}{${i}}`, key)).join(',')}]`);
    case 'deep':
      throw new EditError(field, 'is nested deeper than the console shows; it cannot be edited here');
    default: {
      const never: never = v;
      throw new EditError(field, `unknown type ${String((never as { t: string }).t)}`);
    }
  }
}

/** Finds the first typed value the decoder did not take as that type. */
function checkDecoded(v: TypedValue, p: PyVal, field: string, who: string): void {
  if (v.t === 'list' || v.t === 'tuple') {
    if (p.k === 'list') v.items.forEach((x, i) => checkDecoded(x, p.items[i]!, `${field}[${i}]`, who));
    return;
  }
  if (v.t === 'dict') {
    if (p.k === 'dict') v.entries.forEach(([k, x], i) => checkDecoded(x, p.entries[i]![1], `${field}.${k}`, who));
    return;
  }
  if (v.t in WHAT && p.k !== v.t) throw new EditError(field, `is not ${WHAT[v.t]}: ${who} would receive it as a plain ${p.k}`);
}

/** One edited value as the Python value a worker would receive; EditError naming `field` when
 *  it would not arrive as the type chosen. `who` names the workers in that error. The value
 *  goes through Python's JSON reader and the types' constructors (construct.ts), so a value
 *  no worker could read (an integer over 4,300 digits, nesting past Python's limit, a date
 *  `fromisoformat` rejects) is refused as it would be there. */
export function typedToPy(v: TypedValue, field: string, who: string): PyVal {
  const wire = typedToJson(v, field, MARK);
  let json: ReturnType<typeof parseJson>;
  try {
    json = parseJson(wire);
  } catch (e) {
    // Python's json.loads refuses it too (an integer over 4,300 digits, nesting past its limit):
    // the operator's input, named, not a broker failure.
    if (e instanceof PyJsonError) throw new EditError(field, `${who} could not read it: ${e.message}`);
    throw e;
  }
  const ctx: Crash = { crash: null };
  const value = toPy(json, (entries) => construct(entries, ctx));
  if (ctx.crash) throw new EditError(field, `the value can't be decoded: ${ctx.crash}`);
  checkDecoded(v, value, field, who);
  return value;
}

/** Edited kwargs' names, checked: each named, none twice. */
export function checkKwargNames(kwargs: Array<[string, unknown]>): void {
  const seen = new Set<string>();
  for (const [k] of kwargs) {
    if (!k) throw new EditError('kwargs', 'a keyword needs a name');
    if (seen.has(k)) throw new EditError(`kwargs.${k}`, 'is given twice');
    seen.add(k);
  }
}
