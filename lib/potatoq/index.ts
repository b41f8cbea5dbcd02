// potatoq's wire format for the console (client-safe: no Node or server imports). The Python
// values it carries are lib/pyvalues'; Celery's protocol is lib/celery-protocol's.
export { dumpsPy } from './dumps';
export { decodeTags, KNOWN_TAGS } from './tags';
export { toTyped, decodeJsonValue } from './values';
export { decodePayload, MESSAGE_FIELDS, NOT_OURS } from './decode';
export { decodeCeleryMessage } from './celery';
export { buildMessage, reencodeWithoutEta, BuildMessageError, type BuildMessageInput, type BuiltMessage } from './encode';
export { reencodeEdited, typedToWire, type ReplayEdit } from './edit';
export { celeryToPotatoq, CeleryConversionError } from './convert';
export { previewPayload } from './preview';
export * from './types';

import { parseJson, type JsonNode } from '@/lib/pyvalues/json';
import { dumpsPy } from './dumps';
import { decodeTags } from './tags';

/**
 * `json.dumps(obj, separators=(",", ":"), ensure_ascii=False)` of what potatoq decodes from
 * this JSON: i.e. potatoq's decode → encode round trip (tags normalised, floats in Python repr,
 * `-0` → `0`, duplicate keys collapsed). Accepts JSON text or a parsed tree; throws PyJsonError.
 */
export function dumpsCompact(input: string | JsonNode): string {
  return dumpsPy(decodeTags(typeof input === 'string' ? parseJson(input) : input).value);
}
