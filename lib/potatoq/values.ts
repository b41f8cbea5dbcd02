// potatoq's decoded values from JSON text: `serialization.loads` (tags) then the bounded PValue.
import { parseJson, type JsonNode } from '@/lib/pyvalues/json';
import { pyToPValue, type PValue, type PValueLimits } from '@/lib/pyvalues/pvalue';
import { decodeTags } from './tags';

/** JSON text (or an already parsed tree) → PValue, decoding tags as potatoq does. Throws PyJsonError. */
export function toPValue(input: string | JsonNode, limits?: PValueLimits): PValue {
  const node = typeof input === 'string' ? parseJson(input) : input;
  return pyToPValue(decodeTags(node).value, limits);
}

/** Like toPValue but never throws: for result records and other stored JSON. */
export function decodeJsonValue(text: string, limits?: PValueLimits): { ok: true; value: PValue } | { ok: false; error: string } {
  try {
    return { ok: true, value: toPValue(text, limits) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
