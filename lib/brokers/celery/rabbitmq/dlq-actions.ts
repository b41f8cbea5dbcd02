import 'server-only';
import { actionResult } from '@/lib/brokers/kit/results';
import type { ConfirmChannel, Message, Options } from 'amqplib';
import type { ActionOutcome, ActionResult } from '@/lib/brokers/schema';
import type { ReplayPace } from '@/lib/brokers/types';
import { ackHeld, type Held } from '@/lib/transports/amqp/dlq';
import { failWalk, newWalk, walkQueue, type Walk, type WalkPace } from '@/lib/transports/amqp/dlq-walk';
import type { Letter } from './letter';
import { compareAndDelete, discardDead, fail, ok, replayFailures, restoreRecord, type ReplayBroker } from '../redis/failures';
import type { ResultCtx } from '../redis/context';
import { readRecord } from '../redis/results';
import { celeryLetter, deathOf, type CeleryDlq } from './dlq';

// Replay and discard on a Celery app's dead-letter queue (RabbitMQ 4.x), one walk of the queue
// per call (lib/transports/amqp/dlq-walk.ts: consume, act on the wanted letters, ack each only after its own
// publish confirm, hold the rest unacked and requeue them once at the end).
//
// A task with both a DLQ message and a FAILURE record (Celery 5.7 writes one for a task it
// rejects without requeue) is acted on through its message, which is the exact message the task
// ran from: its record is removed first (compare-and-delete), then the message is published
// again and acked. A crash between the two leaves the message in the DLQ without its record
// (listed, with RabbitMQ's reason): nothing runs twice; a failed publish puts the record back.
// A record whose message is not in the DLQ is replayed from the record, as before
// (replayFailures); a task that has a result other than FAILURE is not replayed from its
// message (it ran again since it was dead-lettered).

/** Headers RabbitMQ adds when it dead-letters or redelivers a message: dropped on replay, so a
 *  replayed task that dies again gets a fresh x-death (count 1). */
const isBrokerHeader = (k: string) => k === 'x-death' || k === 'x-delivery-count' || /^x-(first|last)-death-/.test(k);

const firstText = (vs: unknown[]): string | null => (vs.find((v) => typeof v === 'string' && v) as string | undefined) ?? null;
/** The id a message says without decoding it (toLetter's first two sources: message id, Celery's `id` header). */
const quickId = (p: Message['properties']) => firstText([p.messageId, (p.headers as Record<string, unknown> | undefined)?.id]);
/** What tells a returned message from the others in flight (correlation id as a last resort). */
const returnKey = (p: Message['properties']) =>
  firstText([p.messageId, (p.headers as Record<string, unknown> | undefined)?.id, p.correlationId]);

/** The same message, minus the broker's headers (and user_id, which RabbitMQ checks against the login). */
export function republishProps(m: Message): Options.Publish {
  const p = m.properties;
  const headers = Object.fromEntries(Object.entries((p.headers ?? {}) as Record<string, unknown>).filter(([k]) => !isBrokerHeader(k)));
  const out: Options.Publish = { headers, mandatory: true };
  const copy = [
    'contentType',
    'contentEncoding',
    'deliveryMode',
    'priority',
    'correlationId',
    'replyTo',
    'expiration',
    'messageId',
    'timestamp',
    'type',
    'appId',
  ] as const;
  for (const k of copy) if (p[k] !== undefined && p[k] !== null) (out as Record<string, unknown>)[k] = p[k];
  return out;
}

/** Publishes on the default exchange to `queue` and waits for this message's confirm; a
 *  `basic.return` of a message with the same id (sent before its confirm) means no such queue. */
async function publishToQueue(ch: ConfirmChannel, queue: string, m: Message): Promise<'ok' | 'unroutable' | 'nack'> {
  const key = returnKey(m.properties);
  let returned = false;
  const onReturn = (r: Message) => {
    if (returnKey(r.properties) === key) returned = true;
  };
  ch.on('return', onReturn);
  try {
    const acked = await new Promise<boolean>((resolve) => ch.publish('', queue, m.content, republishProps(m), (err) => resolve(!err)));
    return !acked ? 'nack' : returned ? 'unroutable' : 'ok';
  } finally {
    ch.off('return', onReturn);
  }
}

/** The FAILURE record of `id` taken out of the backend (null: none); a result of any other
 *  status refuses the replay (the task ran again since). */
async function takeRecord(rctx: ResultCtx, id: string): Promise<{ raw: string; ttl: number } | null | ActionOutcome> {
  if (!rctx.backend) return null;
  const found = await readRecord(rctx.backend, rctx.resultPrefix, id);
  if (!found) return null;
  if (found.record.status !== 'FAILURE')
    return fail(
      id,
      'conflict',
      `the result backend holds a ${found.record.status} result for this id: the task ran again after it was dead-lettered; the message stays in the dead-letter queue (discard it if that run is the one you want)`,
    );
  if (!(await compareAndDelete(rctx, id, found.record.raw)))
    return fail(id, 'conflict', 'its FAILURE record changed meanwhile; the message stays');
  return { raw: found.record.raw, ttl: found.ttl };
}

const replayStep =
  (rctx: ResultCtx) =>
  async (l: Letter, held: Held, ch: ConfirmChannel): Promise<ActionOutcome> => {
    const queue = deathOf(l.headers)?.queue;
    if (!queue)
      return fail(l.id, 'invalid', 'no x-death header says which queue it was dead-lettered from; it stays in the dead-letter queue');
    const taken = await takeRecord(rctx, l.id);
    if (taken && 'outcome' in taken) return taken;
    const sent = await publishToQueue(ch, queue, held.msg);
    if (sent !== 'ok') {
      if (taken) await restoreRecord(rctx, l.id, taken.raw, taken.ttl);
      const why = sent === 'nack' ? 'RabbitMQ refused the message (nack)' : `queue "${queue}" no longer exists`;
      return fail(l.id, 'error', `${why}; the message stays in the dead-letter queue${taken ? ' and its FAILURE record is kept' : ''}`);
    }
    if (!ackHeld(held, ch))
      return fail(
        l.id,
        'error',
        'published, but the dead-letter copy could not be removed (connection lost): it is now both queued and dead; discard the letter',
      );
    return ok(
      l.id,
      `published again to ${queue}, the same message without RabbitMQ's x-death headers${taken ? '; its FAILURE record removed' : ''}`,
    );
  };

const discardStep =
  (rctx: ResultCtx) =>
  async (l: Letter, held: Held, ch: ConfirmChannel): Promise<ActionOutcome> => {
    const found = rctx.backend ? await readRecord(rctx.backend, rctx.resultPrefix, l.id) : null;
    const gone = found?.record.status === 'FAILURE' && (await compareAndDelete(rctx, l.id, found.record.raw));
    if (!ackHeld(held, ch)) return fail(l.id, 'error', 'the connection was lost; the message stays in the dead-letter queue');
    return ok(l.id, `removed from the dead-letter queue${gone ? ' and its FAILURE record deleted' : ''}`);
  };

type Kind = 'replay' | 'discard';

/** Walks the DLQ for `ids`; returns the ids it did not find there (to be handled as records). */
async function walkLetters(d: CeleryDlq, rctx: ResultCtx, kind: Kind, w: Walk, pace: WalkPace): Promise<void> {
  if ((await d.link.serverInfo()).major < 4 || !(await d.link.checkQueue(d.name))) return;
  try {
    await walkQueue(
      {
        link: d.link,
        dlq: d.name,
        quickId: (m) => quickId(m.properties),
        decode: (m) => celeryLetter(m, d.name),
        step: kind === 'replay' ? replayStep(rctx) : discardStep(rctx),
      },
      w,
      pace,
    );
  } catch (e) {
    failWalk(w, e);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Replay or discard of dead letters of a Celery app on RabbitMQ with a `deadLetterQueue`: the
 * ids whose message is in the DLQ through it (one walk), the others through their FAILURE
 * records (paced the same way). Per-id outcomes, in the order asked.
 */
export async function actOnCeleryDead(
  d: CeleryDlq,
  rctx: ResultCtx,
  kind: Kind,
  ids: string[],
  broker: Pick<ReplayBroker, 'send' | 'routes'>,
  pace: ReplayPace = {},
): Promise<ActionResult> {
  const w = newWalk(ids);
  // Record-only failures: their queue resolved through the bindings, read once for the call.
  let routes: ReturnType<NonNullable<ReplayBroker['routes']>> | null = null;
  const readRoutes = broker.routes;
  const recordBroker: ReplayBroker = {
    live: async () => null,
    send: broker.send,
    ...(readRoutes ? { routes: () => (routes ??= readRoutes()) } : {}),
  };
  await walkLetters(d, rctx, kind, w, pace);
  const gap = pace.rate && pace.rate > 0 ? 1000 / pace.rate : 0;
  let last = 0;
  for (const id of [...w.wanted]) {
    if (pace.signal?.aborted) {
      w.outcomes.set(id, fail(id, 'error', 'cancelled before this letter was reached; it stays'));
      continue;
    }
    if (!rctx.backend) {
      w.outcomes.set(id, fail(id, 'missing', `not in the dead-letter queue ${d.name} (and no result backend is configured)`));
      continue;
    }
    await pace.gate?.();
    if (gap) {
      const wait = last + gap - Date.now();
      if (wait > 0) await sleep(wait);
      last = Date.now();
    }
    const r = kind === 'replay' ? await replayFailures(rctx, [id], recordBroker) : await discardDead(rctx, [id]);
    const out = r.succeeded[0] ?? r.failed[0]!;
    w.outcomes.set(
      id,
      out.outcome === 'missing' && /no FAILURE record/.test(out.message ?? '')
        ? fail(id, 'missing', `not in the dead-letter queue ${d.name} and no FAILURE record with this id`)
        : out,
    );
    pace.onProgress?.(w.outcomes.size, w.total, w.outcomes.get(id)!);
  }
  w.wanted.clear();
  return actionResult(
    kind,
    rctx.brokerId,
    ids,
    [...new Set(ids)].map((id) => w.outcomes.get(id)!),
  );
}
