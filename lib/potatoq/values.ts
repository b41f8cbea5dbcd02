// potatoq's decoded values from JSON text: `serialization.loads` (tags) then the console's bounded TypedValue.
import { parseJson, type JsonNode } from '@/lib/pyvalues/json';
import { pyToTyped, type TypedLimits } from '@/lib/pyvalues/typed';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { decodeTags } from './tags';

/** JSON text (or an already parsed tree) → TypedValue, decoding tags as potatoq does. Throws PyJsonError. */
export function toTyped(input: string | JsonNode, limits?: TypedLimits): TypedValue {
  const node = typeof input === 'string' ? parseJson(input) : input;
  return pyToTyped(decodeTags(node).value, limits);
}

/** Like toTyped but never throws: for result records and other stored JSON. */
export function decodeJsonValue(text: string, limits?: TypedLimits): { ok: true; value: TypedValue } | { ok: false; error: string } {
  try {
    return { ok: true, value: toTyped(text, limits) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
