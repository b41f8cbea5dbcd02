import 'server-only';
import { randomUUID } from 'node:crypto';
import type { ActionOutcome, ActionResult, EnqueueRequest, EnqueueResult, PurgeResult } from '@/lib/brokers/schema';
import { buildSendTask, isoUtc, sendTaskInput, type BuiltCeleryMessage, type SendTaskInput } from '../send-task';
import { requireBackend, type CeleryRedisCtx } from './context';
import { bucketOf, PRIORITY_STEPS, SEP } from './keys';
import { broadcastRevoke } from './pidbox';
import { findMessage } from './reads-tasks';
import { readRecord, resultKeys } from './results';

// Writes with Celery's own semantics on kombu's Redis layout. Waiting messages are removed with
// `LREM key 1 <the exact item>`: atomic, so a message a worker took in between is simply not
// found (and left alone). Reserved messages (kombu's `unacked`) are never touched.

const ok = (id: string, message: string): ActionOutcome => ({ id, outcome: 'ok', message });
const fail = (id: string, outcome: ActionOutcome['outcome'], message: string): ActionOutcome => ({ id, outcome, message });

/** LPUSH to the priority bucket plus the queue's binding, as `send_task` (declare=[queue]) writes. */
async function publish(ctx: CeleryRedisCtx, m: SendTaskInput, built: BuiltCeleryMessage): Promise<void> {
  const member = [m.queue, '', m.queue].join(SEP);
  await ctx.client
    .multi()
    .sadd(ctx.keys.binding(m.queue), member)
    .sadd(ctx.keys.bindingPermanent(m.queue), member)
    .lpush(ctx.keys.bucket(m.queue, bucketOf(m.priority)), built.json)
    .exec();
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

/** Celery's REVOKED record (`backend.mark_as_revoked`), kept `result_expires`. */
async function storeRevoked(ctx: CeleryRedisCtx, id: string, task: string | null, queue: string): Promise<void> {
  if (!ctx.backend) return;
  const meta =
    `{"status": "REVOKED", "result": {"exc_type": "TaskRevokedError", "exc_message": ["revoked"], "exc_module": "celery.exceptions"}, ` +
    `"traceback": null, "children": [], "date_done": ${JSON.stringify(isoUtc(Date.now()))}, "name": ${JSON.stringify(task)}, ` +
    `"args": null, "kwargs": null, "worker": null, "retries": null, "queue": ${JSON.stringify(queue)}, "task_id": ${JSON.stringify(id)}}`;
  const key = resultKeys(ctx.resultPrefix).meta(id);
  await ctx.backend.multi().setex(key, Math.round(ctx.resultExpires), meta).publish(key, meta).exec();
}

export async function revoke(ctx: CeleryRedisCtx, ids: string[]): Promise<ActionResult> {
  const succeeded: ActionOutcome[] = [];
  const failed: ActionOutcome[] = [];
  const broadcastIds: string[] = [];
  for (const id of ids) {
    const found = await findMessage(ctx, id);
    if (found && 'reserved' in found) {
      failed.push(fail(id, 'running', 'a worker has reserved it (running, or holding it until its ETA): left alone'));
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

/** Deletes FAILURE records (only those: a record that changed meanwhile is kept). */
export async function discardDead(ctx: CeleryRedisCtx, ids: string[]): Promise<ActionResult> {
  const backend = requireBackend(ctx);
  const succeeded: ActionOutcome[] = [];
  const failed: ActionOutcome[] = [];
  for (const id of ids) {
    const found = await readRecord(backend, ctx.resultPrefix, id);
    if (!found || found.record.status !== 'FAILURE') {
      failed.push(fail(id, 'missing', 'no FAILURE record with this id'));
      continue;
    }
    const gone = await compareAndDelete(ctx, id, found.record.raw);
    (gone ? succeeded : failed).push(gone ? ok(id, 'FAILURE record deleted') : fail(id, 'missing', 'the record changed meanwhile'));
  }
  return { action: 'discard', brokerId: ctx.brokerId, requested: ids.length, succeeded, failed };
}

const CAS_DEL = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

async function compareAndDelete(ctx: CeleryRedisCtx, id: string, raw: string): Promise<boolean> {
  return Number(await requireBackend(ctx).eval(CAS_DEL, 1, resultKeys(ctx.resultPrefix).meta(id), raw)) === 1;
}

/**
 * Replay: the failed task's stored name, args, kwargs and queue (result_extended) sent again
 * with the same id, as send_task writes it. One replay per failure across consoles (a claim key
 * `SET NX`); the message is written before the FAILURE record goes, so a crash in between
 * leaves the failure listed (and a second replay then finds the id waiting: conflict), never lost.
 */
export async function replayDead(ctx: CeleryRedisCtx, ids: string[]): Promise<ActionResult> {
  const backend = requireBackend(ctx);
  const succeeded: ActionOutcome[] = [];
  const failed: ActionOutcome[] = [];
  const k = resultKeys(ctx.resultPrefix);
  for (const id of ids) {
    const found = await readRecord(backend, ctx.resultPrefix, id);
    const r = found?.record;
    if (!r || r.status !== 'FAILURE') {
      failed.push(fail(id, 'missing', 'no FAILURE record with this id'));
      continue;
    }
    if (!r.name || !r.queue) {
      failed.push(fail(id, 'invalid', 'the record has no task name or queue: the app stores them only with result_extended = True'));
      continue;
    }
    const claim = randomUUID();
    if ((await backend.set(k.replayClaim(id), claim, 'PX', 60_000, 'NX')) !== 'OK') {
      failed.push(fail(id, 'missing', 'another console is replaying it right now'));
      continue;
    }
    try {
      const live = await findMessage(ctx, id);
      if (live) {
        failed.push(
          fail(
            id,
            'conflict',
            `a message with this id is already ${'reserved' in live ? 'reserved by a worker' : 'waiting'}: the failure is kept`,
          ),
        );
        continue;
      }
      const input: SendTaskInput = {
        task: r.name,
        queue: r.queue,
        args: r.args ?? { k: 'list', items: [] },
        kwargs: r.kwargs ?? { k: 'dict', entries: [] },
        priority: 0,
        etaMs: null,
        expiresMs: null,
        headers: [],
        id,
      };
      const built = buildSendTask(input);
      await publish(ctx, input, built);
      await compareAndDelete(ctx, id, r.raw);
      succeeded.push(ok(id, `sent again to ${r.queue}`));
    } finally {
      await backend.del(k.replayClaim(id));
    }
  }
  return { action: 'replay', brokerId: ctx.brokerId, requested: ids.length, succeeded, failed };
}
