import 'server-only';
import { randomUUID } from 'node:crypto';
import { actionResult } from '@/lib/brokers/kit/results';
import type { ActionOutcome, ActionResult } from '@/lib/brokers/schema';
import { buildSendTask, isoUtc, type BuiltCeleryMessage, type SendTaskInput } from '../send-task';
import { NO_ROUTES, resolveReplayQueue, type QueueRoutes } from '../route';
import { requireBackend, type ResultCtx } from './context';
import { readRecord, resultKeys } from './results';
import { noteDeleted } from './indexed';

// Writes to the Redis result backend, whatever the broker: REVOKED records, deleting FAILURE
// records, and replay (the broker's part is passed in: where a live message is, how to send).

export const ok = (id: string, message: string): ActionOutcome => ({ id, outcome: 'ok', message });
export const fail = (id: string, outcome: ActionOutcome['outcome'], message: string): ActionOutcome => ({ id, outcome, message });

/** Celery's REVOKED record (`backend.mark_as_revoked`), kept `result_expires`. */
export async function storeRevoked(ctx: ResultCtx, id: string, task: string | null, queue: string): Promise<void> {
  if (!ctx.backend) return;
  const meta =
    `{"status": "REVOKED", "result": {"exc_type": "TaskRevokedError", "exc_message": ["revoked"], "exc_module": "celery.exceptions"}, ` +
    `"traceback": null, "children": [], "date_done": ${JSON.stringify(isoUtc(Date.now()))}, "name": ${JSON.stringify(task)}, ` +
    `"args": null, "kwargs": null, "worker": null, "retries": null, "queue": ${JSON.stringify(queue)}, "task_id": ${JSON.stringify(id)}}`;
  const key = resultKeys(ctx.resultPrefix).meta(id);
  await ctx.backend.multi().setex(key, Math.round(ctx.resultExpires), meta).publish(key, meta).exec();
}

/** Deletes FAILURE records (only those: a record that changed meanwhile is kept). */
export async function discardDead(ctx: ResultCtx, ids: string[]): Promise<ActionResult> {
  const backend = requireBackend(ctx);
  const outcomes: ActionOutcome[] = [];
  for (const id of ids) {
    const found = await readRecord(backend, ctx.resultPrefix, id);
    if (!found || found.record.status !== 'FAILURE') {
      outcomes.push(fail(id, 'missing', 'no FAILURE record with this id'));
      continue;
    }
    const gone = await compareAndDelete(ctx, id, found.record.raw);
    outcomes.push(gone ? ok(id, 'FAILURE record deleted') : fail(id, 'missing', 'the record changed meanwhile'));
  }
  return actionResult('discard', ctx.brokerId, ids, outcomes);
}

const CAS_DEL = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Deletes the record of `id` only if it is still exactly `raw`. */
export async function compareAndDelete(ctx: ResultCtx, id: string, raw: string): Promise<boolean> {
  const gone = Number(await requireBackend(ctx).eval(CAS_DEL, 1, resultKeys(ctx.resultPrefix).meta(id), raw)) === 1;
  if (gone) noteDeleted(ctx, id);
  return gone;
}

/** Puts back a record `compareAndDelete` took (unless a new one was written meanwhile), with its TTL. */
export async function restoreRecord(ctx: ResultCtx, id: string, raw: string, ttlSeconds: number): Promise<void> {
  const key = resultKeys(ctx.resultPrefix).meta(id);
  const backend = requireBackend(ctx);
  if (ttlSeconds > 0) await backend.set(key, raw, 'EX', ttlSeconds, 'NX');
  else await backend.set(key, raw, 'NX');
}

/**
 * Replay: the failed task's stored name, args, kwargs and queue (result_extended) sent again
 * with the same id, as send_task writes it. One replay per failure across consoles (a claim key
 * `SET NX`); the message is written before the FAILURE record goes, so a crash in between
 * leaves the failure listed (and a second replay then finds the id waiting: conflict), never lost.
 */
export interface ReplayBroker {
  /** Where a live message with this id is ("waiting", "reserved by a worker"), null when none
   *  (or when the broker cannot tell: RabbitMQ, or a Redis queue longer than one read). */
  live(id: string): Promise<string | null>;
  /** Sends the replay. Where `sentAt` exists, the send also records, atomically with the
   *  message itself, that a replay of this id was sent and when. */
  send(input: SendTaskInput, built: BuiltCeleryMessage): Promise<void>;
  /** When an earlier replay of this id was sent (its record of `send`), null when none is
   *  kept; absent where the broker can't write that record with the message (RabbitMQ). */
  sentAt?(id: string): Promise<number | null>;
  /** Drops the record of `send` once the failure it replayed is gone. */
  forget?(id: string): Promise<void>;
  /** The broker's bindings, read once per replay call: a record's `queue` is a routing key when
   *  the task was routed by exchange + routing key (../route.ts). None: the queue is used as is. */
  routes?(): Promise<QueueRoutes>;
}

/** A replay's message as its failure's record gives it (send_task's arguments, same id). */
export function failureInput(
  r: { name: string; queue: string; args: SendTaskInput['args'] | null; kwargs: SendTaskInput['kwargs'] | null },
  id: string,
): SendTaskInput {
  return {
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
}

/** `edit` changes what is sent (an edited replay); `sent` hears of each message once it is written. */
export interface ReplayHooks {
  edit?: (input: SendTaskInput) => SendTaskInput;
  sent?: (id: string, input: SendTaskInput, built: BuiltCeleryMessage) => void;
}

export async function replayFailures(ctx: ResultCtx, ids: string[], broker: ReplayBroker, hooks: ReplayHooks = {}): Promise<ActionResult> {
  const backend = requireBackend(ctx);
  const outcomes: ActionOutcome[] = [];
  const k = resultKeys(ctx.resultPrefix);
  let routes: Promise<QueueRoutes> | null = null;
  const readRoutes = () => (routes ??= broker.routes ? broker.routes() : Promise.resolve(NO_ROUTES));
  for (const id of ids) {
    const found = await readRecord(backend, ctx.resultPrefix, id);
    const r = found?.record;
    if (!r || r.status !== 'FAILURE') {
      outcomes.push(fail(id, 'missing', 'no FAILURE record with this id'));
      continue;
    }
    if (!r.name || !r.queue) {
      outcomes.push(fail(id, 'invalid', 'the record has no task name or queue: the app stores them only with result_extended = True'));
      continue;
    }
    const claim = randomUUID();
    if ((await backend.set(k.replayClaim(id), claim, 'PX', 60_000, 'NX')) !== 'OK') {
      outcomes.push(fail(id, 'missing', 'another console is replaying it right now'));
      continue;
    }
    try {
      // A replay sent by a console that stopped before removing the failure (killed, or its
      // backend unreachable right then): the message went, so the replay is done and the
      // failure goes now. A failure stored after that send is the replayed task failing again,
      // replayed as any other. This does not depend on finding the message in a long queue.
      const sentAt = broker.sentAt ? await broker.sentAt(id) : null;
      if (sentAt !== null && (r.dateDoneMs === null || r.dateDoneMs <= sentAt)) {
        const gone = await compareAndDelete(ctx, id, r.raw);
        if (gone) await broker.forget?.(id);
        const when = new Date(sentAt).toISOString();
        outcomes.push(
          fail(
            id,
            'already',
            gone
              ? `an earlier replay already sent it (${when}) and stopped before removing its failure; the failure is now removed, nothing sent again`
              : `an earlier replay already sent it (${when}); the failure changed meanwhile and is kept; nothing sent again`,
          ),
        );
        continue;
      }
      const live = await broker.live(id);
      if (live) {
        outcomes.push(fail(id, 'conflict', `a message with this id is already ${live}: the failure is kept`));
        continue;
      }
      const plain = failureInput({ name: r.name, queue: r.queue, args: r.args, kwargs: r.kwargs }, id);
      let input = hooks.edit ? hooks.edit(plain) : plain;
      let note = '';
      if (input.queue === r.queue) {
        // The record's own queue (not an edited one): resolved through the bindings.
        const to = await resolveReplayQueue(r.queue, await readRoutes());
        if (to.kind === 'several') {
          outcomes.push(fail(id, 'invalid', to.why));
          continue;
        }
        input = { ...input, queue: to.queue };
        note = to.note;
      }
      const built = buildSendTask(input);
      // Written (confirmed, on RabbitMQ) before the FAILURE record goes: never lost.
      await broker.send(input, built);
      hooks.sent?.(id, input, built);
      if (await compareAndDelete(ctx, id, r.raw)) await broker.forget?.(id);
      outcomes.push(ok(id, `sent again to ${input.queue}${note}`));
    } finally {
      await backend.del(k.replayClaim(id));
    }
  }
  return actionResult('replay', ctx.brokerId, ids, outcomes);
}
