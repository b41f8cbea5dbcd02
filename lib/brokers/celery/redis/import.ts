import 'server-only';
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '@/lib/brokers/errors';
import type { TaskCall } from '@/lib/brokers/types';
import { buildSendTask, type SendTaskInput } from '../send-task';
import { KombuEncodeError } from '../kombu-json';
import { requireBackend, type CeleryRedisCtx } from './context';
import { readRecord, resultKeys } from './results';
import { findMessage } from './reads-tasks';
import { publish } from './writes';

/**
 * A call from another broker sent as `app.send_task` sends it, under its own id, unless a
 * message with the id is waiting or reserved here or a result with it is stored (it ran here):
 * then `already`, nothing sent. One console at a time per id (replay's claim key), so two
 * consoles moving the same letter send it once.
 */
export async function importCall(ctx: CeleryRedisCtx, call: TaskCall): Promise<{ outcome: 'ok' | 'already'; message: string }> {
  const input: SendTaskInput = {
    task: call.task,
    queue: call.queue,
    args: call.args,
    kwargs: call.kwargs,
    priority: Math.max(0, Math.min(255, call.priority ?? 0)),
    etaMs: null,
    expiresMs: call.expiresMs,
    headers: [],
    id: call.id,
  };
  let built;
  try {
    built = buildSendTask(input);
  } catch (e) {
    if (e instanceof KombuEncodeError) throw new ConsoleError('InvalidInput', `Celery's JSON cannot carry an argument: ${e.message}`);
    throw e;
  }
  const backend = requireBackend(ctx);
  const claim = resultKeys(ctx.resultPrefix).replayClaim(call.id);
  if ((await backend.set(claim, randomUUID(), 'PX', 60_000, 'NX')) !== 'OK')
    throw new ConsoleError('Conflict', 'another console is sending a task with this id right now');
  try {
    const live = await findMessage(ctx, call.id);
    if (live)
      return {
        outcome: 'already',
        message: `a message with this id is already ${'reserved' in live ? 'reserved by a worker' : 'waiting'} here`,
      };
    const stored = await readRecord(backend, ctx.resultPrefix, call.id);
    if (stored) return { outcome: 'already', message: `a task with this id already ran here (${stored.record.status})` };
    await publish(ctx, input, built);
    return { outcome: 'ok', message: `sent to ${call.queue} as ${call.task}` };
  } finally {
    await backend.del(claim);
  }
}
