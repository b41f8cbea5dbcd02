// Edited arguments of a dead letter, from the console's typed values to what potatoq's
// serializer would have written, checked by potatoq's own decoder: a value its workers would
// receive as something else (a datetime "tomorrow 9am" stays a plain dict) is refused with the
// field named. Client-safe (the editor previews with it too).
import type { TypedValue } from '@/lib/brokers/typed-value';
import { MESSAGE_FIELDS } from './decode';
import { parseJson, PyJsonError } from '@/lib/pyvalues/json';
import { decodeTags } from './tags';
import { type PyVal } from '@/lib/pyvalues/pyval';
import { dumpsPy } from './dumps';
import { reencode } from './encode';

export class EditError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'EditError';
  }
}

const tag = (t: string, v: string) => `{"__potatoq__":${JSON.stringify(t)},"v":${v}}`;
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

/** The value as potatoq's wire JSON (tags as its serializer writes them). */
export function typedToWire(v: TypedValue, field: string): string {
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
      return `[${v.items.map((x, i) => typedToWire(x, `${field}[${i}]`)).join(',')}]`;
    case 'dict':
      if (v.truncated) throw new EditError(field, 'has more keys than were read; it cannot be edited here');
      return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${typedToWire(x, `${field}.${k}`)}`).join(',')}}`;
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
      return tag('set', `[${v.items.map((x, i) => typedToWire(x, `${field}{${i}}`)).join(',')}]`);
    case 'deep':
      throw new EditError(field, 'is nested deeper than the console shows; it cannot be edited here');
    default: {
      const never: never = v;
      throw new EditError(field, `unknown type ${String((never as { t: string }).t)}`);
    }
  }
}

/** Finds the first typed value potatoq's decoder did not take as that type. */
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

/** One edited value as the Python value potatoq decodes; EditError naming `field` when it
 *  would not arrive as the type chosen. `who` names the workers in that error (other systems
 *  that take the same Python values, e.g. Celery's, reuse this). */
export function typedToPy(v: TypedValue, field: string, who = "potatoq's workers"): PyVal {
  const wire = typedToWire(v, field);
  let json: ReturnType<typeof parseJson>;
  try {
    json = parseJson(wire);
  } catch (e) {
    // Python's json.loads refuses it too (an integer over 4,300 digits, nesting past its limit):
    // the operator's input, named, not a broker failure.
    if (e instanceof PyJsonError) throw new EditError(field, `${who} could not read it: ${e.message}`);
    throw e;
  }
  const d = decodeTags(json);
  if (d.crash) throw new EditError(field, `the value can't be decoded: ${d.crash}`);
  checkDecoded(v, d.value, field, who);
  return d.value;
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

export interface ReplayEdit {
  args?: TypedValue[];
  kwargs?: Array<[string, TypedValue]>;
  queue?: string;
  priority?: number;
}

/**
 * The message a replay with `edit` writes: what `requeue_dead` writes (decode, eta dropped,
 * encode), with the edited fields replaced. Same id, task and other fields.
 */
export function reencodeEdited(raw: string, edit: ReplayEdit, now = Date.now() / 1000): { before: string; after: string } {
  const base = reencode(raw, true, now);
  if (!base.ok) throw new EditError('payload', `potatoq can't run this letter: ${base.reason}`);
  const root = decodeTags(parseJson(base.json)).value;
  if (root.k !== 'dict') throw new EditError('payload', 'not an object');
  const known = new Map(root.entries.filter(([k]) => (MESSAGE_FIELDS as readonly string[]).includes(k)));
  if (edit.args) known.set('args', { k: 'list', items: edit.args.map((a, i) => typedToPy(a, `args[${i}]`)) });
  if (edit.kwargs) {
    checkKwargNames(edit.kwargs);
    known.set('kwargs', { k: 'dict', entries: edit.kwargs.map(([k, x]) => [k, typedToPy(x, `kwargs.${k}`)]) });
  }
  if (edit.queue !== undefined) {
    const q = edit.queue.trim();
    if (!q) throw new EditError('queue', 'must not be empty');
    known.set('queue', { k: 'str', v: q });
  }
  if (edit.priority !== undefined) {
    if (!Number.isSafeInteger(edit.priority)) throw new EditError('priority', 'must be a whole number');
    known.set('priority', { k: 'int', text: String(edit.priority) });
  }
  // Field order and defaults as potatoq's encoder writes them: re-encode the edited message.
  const edited = reencode(dumpsPy({ k: 'dict', entries: [...known.entries()] }), false, now);
  if (!edited.ok) throw new EditError('payload', edited.reason);
  return { before: base.json, after: edited.json };
}
