import 'server-only';
import { actionResult } from '@/lib/brokers/kit/results';
import type { ActionOutcome, ActionResult, EnqueueRequest, EnqueueResult, PurgeResult } from '@/lib/brokers/schema';
import { buildSendTask, sendTaskInput, type BuiltCeleryMessage, type SendTaskInput } from '../send-task';
import type { CeleryRedisCtx } from './context';
import { fail, ok, replayFailures, storeRevoked, type ReplayBroker } from './failures';
import { bucketOf, PRIORITY_STEPS, SEP } from './keys';
import { broadcastRevoke } from './pidbox';
import { parseEnvelope } from '../message';
import type { WaitingItem } from './lists';
import { anonymousId, HEADS } from './read-profile';
import { findMessage, locateMessage, PARTIAL_FIND } from './reads-tasks';
import { readRedisRoutes } from './routes';

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

/** The exact item a scan found (read whole, or fetched again by position when only its
 *  envelope was read), null when it is no longer there. */
export async function exactItem(ctx: CeleryRedisCtx, id: string, w: WaitingItem): Promise<Buffer | null> {
  if (w.raw) return w.raw;
  const key = ctx.keys.bucket(w.queue, PRIORITY_STEPS[w.bucket]!);
  const item = await ctx.client.lindexBuffer(key, -(w.pos + 1));
  if (!item) return null;
  const again = parseEnvelope(item.toString('utf8'), { ...HEADS.parse, size: item.length });
  const same = again.info.id === w.env.info.id && (w.env.info.id !== null || anonymousId(item.length, item) === id);
  return same ? item : null;
}

export async function revoke(ctx: CeleryRedisCtx, ids: string[]): Promise<ActionResult> {
  const outcomes: ActionOutcome[] = [];
  const broadcastIds: string[] = [];
  for (const id of ids) {
    const { found, complete } = await locateMessage(ctx, id);
    const anonymous = id.startsWith('no-id-');
    if (found && 'reserved' in found) {
      // Not touched in Redis; the broadcast still makes the worker drop it if it has not started it.
      if (!anonymous) broadcastIds.push(id);
      outcomes.push(
        fail(
          id,
          'running',
          'a worker has reserved it (running, or holding it until its ETA): left in place; the revoke was broadcast, so the worker drops it unless it already started',
        ),
      );
      continue;
    }
    if (!found) {
      // Nothing is stored for an id that was not found: no REVOKED result.
      if (!anonymous) broadcastIds.push(id);
      const where = complete ? 'not waiting in any queue the console knows' : PARTIAL_FIND;
      outcomes.push(
        fail(id, 'missing', anonymous ? `${where}; nothing removed` : `${where}; the revoke was still broadcast to live workers`),
      );
      continue;
    }
    const w = found.waiting;
    const key = ctx.keys.bucket(w.queue, PRIORITY_STEPS[w.bucket]!);
    const item = await exactItem(ctx, id, w);
    const removed = item ? await ctx.client.lrem(key, 1, item) : 0;
    if (removed) ctx.splits?.forget(w.queue); // taken from the middle: the kept split is off
    if (removed !== 1) {
      outcomes.push(fail(id, 'missing', 'a worker took it while the console was revoking it'));
      continue;
    }
    if (w.env.info.id === null) {
      // No task id: no worker can be told about it and no result can be stored under it.
      outcomes.push(ok(id, 'removed from its queue; it carries no task id, so no REVOKED result was stored and nothing was broadcast'));
      continue;
    }
    await storeRevoked(ctx, w.env.info.id, w.env.info.task, w.queue);
    broadcastIds.push(w.env.info.id);
    outcomes.push(ok(id, 'removed from its queue; REVOKED stored and the revoke broadcast to workers'));
  }
  if (broadcastIds.length) await broadcastRevoke(ctx, broadcastIds);
  return actionResult('revoke', ctx.brokerId, ids, outcomes);
}

/** `celery purge -Q`: LLEN + DEL of every bucket, in one transaction. */
export async function purge(ctx: CeleryRedisCtx, queue: string): Promise<PurgeResult> {
  const m = ctx.client.multi();
  for (const k of ctx.keys.buckets(queue)) m.llen(k).del(k);
  const res = (await m.exec()) ?? [];
  ctx.splits?.forget(queue);
  const removed = res.filter((_, i) => i % 2 === 0).reduce((n, [, v]) => n + Number(v ?? 0), 0);
  return { brokerId: ctx.brokerId, queue, removed };
}

/** How long the broker remembers a replay's send: longer than any console stays down. */
export const REPLAYED_TTL_SECONDS = 30 * 86400;

/** The broker's record that a replay sent this id (beside kombu's keys; no binding names it). */
export const replayedKey = (ctx: CeleryRedisCtx, id: string) => `${ctx.keys.prefix}_potatoq_console.replayed.${id}`;

/** Replay on Redis: a live message with the id (waiting or reserved) is a conflict; a replay
 *  this console sent is known by its record, SET in the same MULTI as the LPUSH. */
export const redisReplayBroker = (ctx: CeleryRedisCtx): ReplayBroker => ({
  live: async (id) => {
    const found = await findMessage(ctx, id);
    return found ? ('reserved' in found ? 'reserved by a worker' : 'waiting') : null;
  },
  send: (input, built) => publish(ctx, input, built, { key: replayedKey(ctx, built.id), ttlSeconds: REPLAYED_TTL_SECONDS }),
  sentAt: async (id) => {
    const v = await ctx.client.get(replayedKey(ctx, id));
    const ms = v === null ? NaN : Number(v);
    return Number.isFinite(ms) ? ms : null;
  },
  forget: async (id) => {
    await ctx.client.del(replayedKey(ctx, id));
  },
  routes: () => readRedisRoutes(ctx.client, ctx.keys),
});

export const replayDead = (ctx: CeleryRedisCtx, ids: string[]): Promise<ActionResult> => replayFailures(ctx, ids, redisReplayBroker(ctx));
