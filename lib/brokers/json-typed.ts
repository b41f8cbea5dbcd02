import type { TypedValue } from './typed-value';

// Plain JSON (a JSON payload as a system stores it) as the console's typed value, bounded so a
// huge or deep payload renders fast: numbers as the text JSON.parse gives back.

const MAX_DEPTH = 32;
const MAX_ITEMS = 1000;
const MAX_STR = 100_000;

export function jsonToTyped(v: unknown, depth = 0): TypedValue {
  if (depth > MAX_DEPTH) return { t: 'deep', depth };
  if (v === null || v === undefined) return { t: 'null' };
  if (typeof v === 'boolean') return { t: 'bool', v };
  if (typeof v === 'number') return Number.isInteger(v) ? { t: 'int', v: String(v) } : { t: 'float', v: String(v) };
  if (typeof v === 'string')
    return v.length > MAX_STR ? { t: 'str', v: v.slice(0, MAX_STR), truncated: v.length - MAX_STR } : { t: 'str', v };
  if (Array.isArray(v)) {
    const items = v.slice(0, MAX_ITEMS).map((x) => jsonToTyped(x, depth + 1));
    return v.length > MAX_ITEMS ? { t: 'list', items, truncated: v.length - MAX_ITEMS } : { t: 'list', items };
  }
  const all = Object.entries(v as Record<string, unknown>);
  const entries = all.slice(0, MAX_ITEMS).map(([k, x]): [string, TypedValue] => [k, jsonToTyped(x, depth + 1)]);
  return all.length > MAX_ITEMS ? { t: 'dict', entries, truncated: all.length - MAX_ITEMS } : { t: 'dict', entries };
}
