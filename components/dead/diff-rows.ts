import { dumpsJson } from '@/lib/pyvalues/dumps-json';
import { parseJson, type JsonNode } from '@/lib/pyvalues';

// The message before and after an edit, field by field. A field that is an object on both sides
// (QueueFlow's payload, potatoq's kwargs, a config) is compared entry by entry, in the original
// order with new keys after, so one changed value marks that entry, not the whole object.

export interface DiffEntry {
  key: string;
  /** Undefined: absent on that side. */
  before?: string;
  after?: string;
  changed: boolean;
}

export interface DiffRow extends DiffEntry {
  /** Set when the field is an object on both sides: its entries, compared one by one. */
  entries?: DiffEntry[];
}

const text = (n: JsonNode) => dumpsJson(n);

/** Top-level fields of a message, in wire order (tolerant of NaN and big numbers). */
function fieldsOf(json: string): Array<[string, JsonNode | string]> {
  try {
    const n = parseJson(json);
    return n.k === 'obj' ? n.entries : [['(message)', json]];
  } catch {
    return [['(message)', json]];
  }
}

/** `before`'s keys in its order, then the keys only `after` has, in its order. */
function keysOf<T>(before: Array<[string, T]>, after: Array<[string, T]>): string[] {
  return [...new Set([...before.map(([k]) => k), ...after.map(([k]) => k)])];
}

function entryOf(key: string, b: JsonNode | string | undefined, a: JsonNode | string | undefined): DiffRow {
  const before = b === undefined ? undefined : typeof b === 'string' ? b : text(b);
  const after = a === undefined ? undefined : typeof a === 'string' ? a : text(a);
  const row: DiffRow = { key, before, after, changed: before !== after };
  if (typeof b === 'object' && typeof a === 'object' && b.k === 'obj' && a.k === 'obj') {
    const bm = new Map(b.entries);
    const am = new Map(a.entries);
    row.entries = keysOf(b.entries, a.entries).map((k) => entryOf(k, bm.get(k), am.get(k)));
    // Equal entries in another order are the same object to the system (a JSON object, kwargs).
    row.changed = row.entries.some((e) => e.changed);
  }
  return row;
}

/** The rows of the before/after table: the plain replay's fields in order, then new ones. */
export function diffRows(before: string, after: string): DiffRow[] {
  const b = fieldsOf(before);
  const a = fieldsOf(after);
  const bm = new Map(b);
  const am = new Map(a);
  return keysOf(b, a).map((k) => entryOf(k, bm.get(k), am.get(k)));
}
