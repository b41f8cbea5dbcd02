// Rebuilding a Celery protocol 2 message as the potatoq message `potatoq call` would send.
import { buildMessage, type BuiltMessage } from './encode';
import { parseJson, type JsonNode } from '@/lib/pyvalues/json';
import type { DecodedPayload } from './types';
import { dumpsPy } from './dumps';
import { decodeTags } from './tags';

export class CeleryConversionError extends Error {}

const textOf = (node: JsonNode | undefined, fallback: string): string => (node === undefined ? fallback : dumpsPy(decodeTags(node).value));

/**
 * The potatoq message for a Celery protocol 2 body: the task name and id from Celery's
 * headers (the id is kept, so results and revocations still match), args and kwargs from the
 * body, the queue it was found on. Callbacks, chains and chords are not carried over: potatoq
 * cannot run Celery signatures. Throws CeleryConversionError (or BuildMessageError).
 */
export function celeryToPotatoq(raw: string, decoded: DecodedPayload, queue: string, fallbackId: string, now?: number): BuiltMessage {
  if (decoded.kind !== 'foreign' || decoded.foreign !== 'celery-v2' || !decoded.celery?.task) {
    throw new CeleryConversionError('not a Celery (protocol 2) message with a task name in its headers');
  }
  const body = parseJson(raw);
  const items = body.k === 'arr' ? body.items : [];
  return buildMessage({
    task: decoded.celery.task,
    queue,
    id: decoded.celery.id ?? fallbackId,
    args: textOf(items[0], '[]'),
    kwargs: textOf(items[1], '{}'),
    now,
  });
}
