import 'server-only';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { EditPreview, ReplayEditInput } from '@/lib/brokers/schema-edit';
import { POTATOQ_REDIS_MODEL } from '../model';
import { editedPayload, previewOf } from '../edit-replay';
import { redisKeys } from './keys';
import { runScript } from '@/lib/transports/redis/scripts';
import { SCRIPTS } from './scripts';
import { describeCode, type RedisOutcome } from './writes';

// Replay with edits on potatoq's Redis layout: the payload edited by the shared potatoq code
// (../edit-replay.ts), then one script (REPLAY_EDITED) that checks the letter is still the one
// read and moves it to its (edited) queue's ready set with the new payload, queue and priority.

/** The letter's payload, or null when `id` is not a dead letter here. */
async function letterPayload(client: Redis, prefix: string, id: string): Promise<Buffer | null> {
  const [st, p] = await client.hmgetBuffer(redisKeys(prefix).job(id), 'st', 'p');
  return st?.toString() === 'dead' && p ? p : null;
}

export async function previewEditedRedis(
  client: Redis,
  prefix: string,
  brokerId: string,
  id: string,
  edit: ReplayEditInput,
): Promise<EditPreview> {
  const p = await letterPayload(client, prefix, id);
  return previewOf(brokerId, id, p === null ? null : p.toString('utf8'), edit, POTATOQ_REDIS_MODEL);
}

/** The preview of what was written (computed from the payload the script then checks) and the outcome. */
export async function replayEditedRedis(
  client: Redis,
  prefix: string,
  brokerId: string,
  id: string,
  edit: ReplayEditInput,
): Promise<{ preview: EditPreview; outcome: RedisOutcome }> {
  const p = await letterPayload(client, prefix, id);
  const preview = previewOf(brokerId, id, p === null ? null : p.toString('utf8'), edit, POTATOQ_REDIS_MODEL);
  const sha = createHash('sha1').update(p!).digest('hex');
  const after = editedPayload(p!.toString('utf8'), edit).after;
  const code = (await runScript(client, SCRIPTS.replayEdited, [
    prefix,
    id,
    sha,
    after,
    edit.queue?.trim() ?? '',
    edit.priority === undefined ? '' : String(edit.priority),
  ])) as string;
  const outcome = describeCode('replay', id, code);
  return { preview: { ...preview, after }, outcome };
}
