import 'server-only';
import { buildMessage, BuildMessageError, type BuildMessageInput } from '@/lib/potatoq';
import { ConsoleError } from '@/lib/brokers/errors';
import type { EnqueueRequest } from '@/lib/brokers/schema';
import { parsePotatoqEnqueue, type PotatoqEnqueue } from './enqueue-fields';

// What every adapter writes the way potatoq writes it, whatever the store.

/** A Python float as `json.dumps` writes it (`1.0`, not `1`), so potatoq reads back a float. */
export function pyFloat(n: number): string {
  const s = String(n);
  return /[.eE]|Infinity|NaN/.test(s) ? s : `${s}.0`;
}

/** The REVOKED record potatoq's `revoke` stores: all 13 keys of `ResultRecord.to_dict()`,
 *  in its order, compact. */
export function revokedRecord(id: string, now: number, name: string | null, meta = 'null'): string {
  return (
    `{"task_id":${JSON.stringify(id)},"status":"REVOKED","result":null,"traceback":null,"meta":${meta},` +
    `"date_done":${pyFloat(now)},"name":${name === null ? 'null' : JSON.stringify(name)},"args":null,"kwargs":null,` +
    `"retries":0,"worker":null,"date_started":null,"enqueued_at":null}`
  );
}

/** The message potatoq's `call` would build; bad input is InvalidInput keyed by field path
 *  (`kwargs.when` for a malformed tagged value inside kwargs). */
export function buildFromRequest(req: EnqueueRequest, now: number) {
  return buildFromFields(parsePotatoqEnqueue(req), now);
}

/** What lib/potatoq's `buildMessage` takes for a checked request, for stores that build in
 *  batches (Redis' `enqueueTasks`); bad tagged values are refused (`refuseBadTags`). */
export function potatoqBuildInput(p: PotatoqEnqueue): BuildMessageInput {
  return { ...p, refuseBadTags: true };
}

/** `buildMessage` with its BuildMessageError as InvalidInput keyed by field path. */
export function asInvalidInput<T>(build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof BuildMessageError) throw new ConsoleError('InvalidInput', e.message, e.fields);
    throw e;
  }
}

export function buildFromFields(p: PotatoqEnqueue, now: number) {
  return asInvalidInput(() => buildMessage({ ...potatoqBuildInput(p), now }));
}

/** The `meta` of the REVOKED record a console move leaves for a waiting task it took. */
export const MOVED_META = '{"potatoq_console":"moved"}';
