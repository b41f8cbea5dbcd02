import 'server-only';
import type { ActionOutcome, ActionResult, EnqueueRequest, EnqueueResult, PurgeResult } from '@/lib/brokers/schema';
import { buildSendTask, sendTaskInput, type BuiltCeleryMessage, type SendTaskInput } from '../send-task';
import type { CeleryRedisCtx } from './context';
import { fail, ok, replayFailures, storeRevoked, type ReplayBroker } from './failures';
import { bucketOf, PRIORITY_STEPS, SEP } from './keys';
import { broadcastRevoke } from './pidbox';
import { findMessage } from './reads-tasks';

// Writes with Celery's own semantics on kombu's Redis layout. Waiting messages are removed with
// `LREM key 1 <the exact item>`: atomic, so a message a worker took in between is simply not
// found (and left alone). Reserved messages (kombu's `unacked`) are never touched.

/** LPUSH to the priority bucket plus the queue's binding, as `send_task` (declare=[queue]) writes. */
export async function publish(
  ctx: CeleryRedisCtx,
  m: SendTaskInput,
  built: BuiltCeleryMessage,
  /** Also SET in the same transaction (a move's record that the id arrived here). */
  marker?: { key: string; ttlSeconds: number },
): Promise<void> {
  const member = [m.queue, '', m.queue].join(SEP);
  const tx = ctx.client
    .multi()
    .sadd(ctx.keys.binding(m.queue), member)
    .sadd(ctx.keys.bindingPermanent(m.queue), member)
    .lpush(ctx.keys.bucket(m.queue, bucketOf(m.priority)), built.json);
  if (marker) tx.set(marker.key, String(Date.now()), 'EX', marker.ttlSeconds);
  await tx.exec();
}

export function previewMessage(req: EnqueueRequest): { input: SendTaskInput; built: BuiltCeleryMessage } {
  const input = sendTaskInput(req);
  return { input, built: buildSendTask(input) };
}

export async function enqueue(ctx: CeleryRedisCtx, req: EnqueueRequest): Promise<EnqueueResult> {
  const { input, built } = previewMessage(req);
  await publish(ctx, input, built);
  const state = input.etaMs !== null && input.etaMs > Date.now() ? 'scheduled' : 'ready';
  return { brokerId: ctx.brokerId, id: built.id, queue: input.queue, task: input.task, state, payload: built.json };
}

export async function revoke(ctx: CeleryRedisCtx, ids: string[]): Promise<ActionResult> {
  const succeeded: ActionOutcome[] = [];
  const failed: ActionOutcome[] = [];
  const broadcastIds: string[] = [];
  for (const id of ids) {
    const found = await findMessage(ctx, id);
    if (found && 'reserved' in found) {
      // Not touched in Redis; the broadcast still makes the worker drop it if it has not started it.
      broadcastIds.push(id);
      failed.push(
        fail(
          id,
          'running',
          'a worker has reserved it (running, or holding it until its ETA): left in place; the revoke was broadcast, so the worker drops it unless it already started',
        ),
      );
      continue;
    }
    if (!found) {
      broadcastIds.push(id);
      failed.push(fail(id, 'missing', 'not waiting in any queue the console knows; the revoke was still broadcast to live workers'));
      continue;
    }
    const w = found.waiting;
    const key = ctx.keys.bucket(w.queue, PRIORITY_STEPS[w.bucket]!);
    const removed = await ctx.client.lrem(key, 1, w.raw);
    if (removed !== 1) {
      failed.push(fail(id, 'missing', 'a worker took it while the console was revoking it'));
      continue;
    }
    await storeRevoked(ctx, id, w.env.info.task, w.queue);
    broadcastIds.push(id);
    succeeded.push(ok(id, 'removed from its queue; REVOKED stored and the revoke broadcast to workers'));
  }
  await broadcastRevoke(ctx, broadcastIds);
  return { action: 'revoke', brokerId: ctx.brokerId, requested: ids.length, succeeded, failed };
}

/** `celery purge -Q`: LLEN + DEL of every bucket, in one transaction. */
export async function purge(ctx: CeleryRedisCtx, queue: string): Promise<PurgeResult> {
  const m = ctx.client.multi();
  for (const k of ctx.keys.buckets(queue)) m.llen(k).del(k);
  const res = (await m.exec()) ?? [];
  const removed = res.filter((_, i) => i % 2 === 0).reduce((n, [, v]) => n + Number(v ?? 0), 0);
  return { brokerId: ctx.brokerId, queue, removed };
}

/** Replay on Redis: a live message with the id (waiting or reserved) is a conflict. */
export const redisReplayBroker = (ctx: CeleryRedisCtx): ReplayBroker => ({
  live: async (id) => {
    const found = await findMessage(ctx, id);
    return found ? ('reserved' in found ? 'reserved by a worker' : 'waiting') : null;
  },
  send: (input, built) => publish(ctx, input, built),
});

export const replayDead = (ctx: CeleryRedisCtx, ids: string[]): Promise<ActionResult> => replayFailures(ctx, ids, redisReplayBroker(ctx));
