import type { TypedKind, TypedValue } from '@/lib/brokers/schema';

// The types the edit-and-replay editor offers, as the adapter declares them: JSON's own always,
// the typed kinds (datetime, Decimal, bytes, ...) only where the system's workers receive them.

/** JSON's types, which every system's payload can carry. */
const JSON_TYPES = ['str', 'int', 'float', 'bool', 'null'] as const;
/** Every typed kind the editor knows, in the order it offers them. */
const TYPED: readonly TypedKind[] = ['datetime', 'date', 'time', 'timedelta', 'uuid', 'decimal', 'bytes', 'set'];
const CONTAINERS = ['list', 'dict'] as const;

export const EDIT_TYPES = [...JSON_TYPES, ...TYPED, ...CONTAINERS] as const;
export type EditType = (typeof EDIT_TYPES)[number];

export const typeOf = (v: TypedValue): EditType => (v.t === 'tuple' ? 'list' : v.t === 'deep' ? 'str' : v.t);

/** The types offered for a value now of type `current`: JSON's, the declared `kinds` (absent:
 *  all), and `current` itself, so a value already of another kind still shows what it is. */
export function editTypesFor(kinds: readonly TypedKind[] | undefined, current: EditType): EditType[] {
  const allowed = new Set<EditType>(kinds ?? TYPED);
  return EDIT_TYPES.filter((t) => !(TYPED as readonly string[]).includes(t) || allowed.has(t) || t === current);
}

/** JSON's own names for its types, for a system whose payload is JSON only (`kinds: []`:
 *  QueueFlow, Simple Durable Jobs); elsewhere the editor keeps Python's (its workers' words). */
const JSON_NAMES: Partial<Record<EditType, string>> = {
  str: 'string',
  int: 'integer',
  float: 'number',
  bool: 'true/false',
  list: 'array',
  dict: 'object',
};

/** How the type picker names type `t`: `kinds` is the declaration's (absent: every kind). */
export function typeLabel(t: EditType, kinds: readonly TypedKind[] | undefined): string {
  if (kinds?.length === 0 && JSON_NAMES[t]) return JSON_NAMES[t];
  return t === 'decimal' ? 'Decimal' : t === 'uuid' ? 'UUID' : t;
}

/** The editor's words for the keyword arguments, from the declaration. */
export function kwargsWords(decl: { kwargs?: { label: string; entry: string } } | undefined): { label: string; entry: string } {
  return decl?.kwargs ?? { label: 'Keyword arguments', entry: 'keyword argument' };
}
