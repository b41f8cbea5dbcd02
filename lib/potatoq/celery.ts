// Celery messages met on potatoq's queues (a Celery producer pointed at them): read with
// Celery's protocol (lib/celery-protocol), their bodies' JSON with potatoq's own tags, which
// is what a potatoq worker would see.
import {
  decodeCeleryMessage as decodeMessage,
  decodeKombuEnvelope,
  type BodyDecoder,
  type CeleryInfo,
} from '@/lib/celery-protocol/message';
import { parseJson } from '@/lib/pyvalues/json';
import type { PyVal } from '@/lib/pyvalues/pyval';
import { decodeTags } from './tags';

export { emptyCeleryInfo, fillFromBody } from '@/lib/celery-protocol/message';

const potatoqBody: BodyDecoder = (text) => {
  try {
    return decodeTags(parseJson(text)).value;
  } catch {
    return null;
  }
};

/** A Celery message from AMQP headers (may be null) and its body (raw or already decoded). */
export function decodeCeleryMessage(headers: Record<string, unknown> | null, body: string | Uint8Array | PyVal | null): CeleryInfo {
  return decodeMessage(headers, body, potatoqBody);
}

/** A kombu envelope found where a potatoq message was expected. */
export const decodeCeleryEnvelope = (env: PyVal): CeleryInfo => decodeKombuEnvelope(env, potatoqBody);
