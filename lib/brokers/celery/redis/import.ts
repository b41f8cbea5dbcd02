import 'server-only';
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '@/lib/brokers/errors';
import type { TaskCall } from '@/lib/brokers/types';
import { buildSendTask, type SendTaskInput } from '../send-task';
import { KombuEncodeError } from '@/lib/celery-protocol/kombu-json';
import { requireBackend, type CeleryRedisCtx } from './context';
import { readRecord, resultKeys } from './results';
import { findMessage } from './reads-tasks';
import { publish } from './writes';

/** How long the broker remembers that a move sent an id here (a retried move within it is `already`). */
export const MOVED_TTL_SECONDS = 30 * 86400;

/** The broker's record that a move sent this id (beside kombu's keys; no binding names it). */
export const movedKey = (ctx: CeleryRedisCtx, id: string) => `${ctx.keys.prefix}_potatoq_console.moved.${id}`;

/**
 * A call from another broker sent as `app.send_task` sends it, under its own id, unless the id
 * is already here: sent by an earlier move (a marker SET in the same MULTI as the LPUSH, kept
 * MOVED_TTL_SECONDS, so neither a long queue, nor a queue the console is not configured to read,
 * nor a task that stores no result hides it), waiting or reserved, or with a stored result:
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
    rootId: call.rootId,
    parentId: call.parentId,
    ignoreResult: call.ignoreResult,
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
    const there = await findCall(ctx, call.id);
    if (there) return { outcome: 'already', message: there };
    await publish(ctx, input, built, { key: movedKey(ctx, call.id), ttlSeconds: MOVED_TTL_SECONDS });
    return { outcome: 'ok', message: `sent to ${call.queue} as ${call.task}` };
  } finally {
    await backend.del(claim);
  }
}

/** importCall's check, nothing sent: an earlier move's marker, a waiting or reserved message,
 *  a stored result. */
export async function findCall(ctx: CeleryRedisCtx, id: string): Promise<string | null> {
  if (await ctx.client.exists(movedKey(ctx, id))) return 'an earlier move already sent a task with this id here';
  const live = await findMessage(ctx, id);
  if (live) return `a message with this id is already ${'reserved' in live ? 'reserved by a worker' : 'waiting'} here`;
  const stored = await readRecord(requireBackend(ctx), ctx.resultPrefix, id);
  return stored ? `a task with this id already ran here (${stored.record.status})` : null;
}
