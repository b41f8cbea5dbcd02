// potatoq's wire format for the console (client-safe: no Node or server imports).
export { parseJson, PyJsonError, PY_MAX_JSON_DEPTH, type JsonNode } from './json';
export { pyFloatRepr, pyJsonFloat } from './pyfloat';
export { dumpsPy, plainPy, type PyVal } from './pyval';
export { decodeTags, KNOWN_TAGS } from './tags';
export { toPValue, decodeJsonValue, pyToPValue, type PValueLimits } from './pvalue';
export { decodePayload, MESSAGE_FIELDS, NOT_OURS } from './decode';
export { decodeCeleryMessage } from './celery';
export { buildMessage, reencodeWithoutEta, BuildMessageError, type BuildMessageInput, type BuiltMessage } from './encode';
export { reasonSummary, reasonSummaryFull } from './reason';
export { checkKwargNames, reencodeEdited, typedToPy, typedToWire, EditError, type ReplayEdit } from './edit';
export { celeryToPotatoq, CeleryConversionError } from './convert';
export { previewPayload } from './preview';
export { decodeUtf8 } from './utf8';
export * from './types';

import { parseJson, type JsonNode } from './json';
import { dumpsPy } from './pyval';
import { decodeTags } from './tags';

/**
 * `json.dumps(obj, separators=(",", ":"), ensure_ascii=False)` of what potatoq decodes from
 * this JSON: i.e. potatoq's decode → encode round trip (tags normalised, floats in Python repr,
 * `-0` → `0`, duplicate keys collapsed). Accepts JSON text or a parsed tree; throws PyJsonError.
 */
export function dumpsCompact(input: string | JsonNode): string {
  return dumpsPy(decodeTags(typeof input === 'string' ? parseJson(input) : input).value);
}
