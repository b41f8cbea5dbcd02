import 'server-only';
import { BuildMessageError, CeleryConversionError, celeryToPotatoq, reencodeWithoutEta } from '@/lib/potatoq';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome, ActionResult, EnqueueRequest, EnqueueResult, PurgeResult } from '@/lib/brokers/schema';
import { parsePotatoqEnqueue } from '../enqueue-fields';
import { buildFromFields } from '../records';
import { actionResult } from '@/lib/brokers/kit/results';
import type { RabbitCtx } from './context';
import { ackHeld, publishConfirmed } from '@/lib/transports/amqp/dlq';
import { potatoqProperties } from './dlq';
import { runOnLetters, type LetterStep, type PaceOptions } from './letter-actions';
import { redriveLetters, type RedriveOptions } from './redrive';
import { checkQueueName, DELAY_REFUSAL } from './topology';

const missingQueue = (q: string) => `RabbitMQ queue "${q}" does not exist yet: start a potatoq worker for it or run \`potatoq migrate\``;

/** Publishes `json` to `queue` and acks the letter only after its own confirm (no return). */
export async function republish(
  ctx: RabbitCtx,
  id: string,
  queue: string,
  json: string,
  priority: number,
  h: Parameters<LetterStep>[1],
  ch: Parameters<LetterStep>[2],
): Promise<ActionOutcome> {
  if (/[.#*]/.test(queue)) return { id, outcome: 'invalid', message: `its queue "${queue}" is not a potatoq queue name; the letter stays` };
  const sent = await publishConfirmed(ch, '', queue, Buffer.from(json, 'utf8'), potatoqProperties(id, priority));
  if (sent === 'unroutable') return { id, outcome: 'error', message: `${missingQueue(queue)}; the letter stays in the DLQ` };
  if (!ackHeld(h, ch)) {
    return {
      id,
      outcome: 'error',
      message: 'published, but the DLQ copy could not be removed (connection lost): it is now both queued and dead; discard the letter',
    };
  }
  let note = '';
  const mark = ctx.backend ? await ctx.backend.getResult(id).catch(() => null) : null;
  if (mark?.status === 'REVOKED')
    note = ' (note: a REVOKED mark for this id is still in the result backend, so workers will skip it until the mark expires)';
  return { id, outcome: 'ok', message: `published to ${queue} without its eta; the result record is kept, as potatoq does${note}` };
}

export const numberField = (p: Parameters<LetterStep>[0]['payload'], key: string): number => {
  if (p.kind !== 'potatoq') return 0;
  const v = p.fields.find((f) => f[0] === key)?.[1];
  return v && v.t === 'int' ? Number(v.v) : 0;
};

/** potatoq's `dead retry`: decode, `eta = None`, publish to its queue; the letter is acked after the confirm. */
export const replayStep =
  (ctx: RabbitCtx): LetterStep =>
  async (letter, h, ch) => {
    const p = letter.payload;
    if (p.kind === 'foreign') {
      const hint = p.foreign === 'celery-v2' ? ' Use "convert to a potatoq task and replay" for Celery messages.' : '';
      return { id: letter.id, outcome: 'invalid', message: `${p.reason}${hint}` };
    }
    const re = reencodeWithoutEta(letter.body.toString('utf8'));
    if (!re.ok) return { id: letter.id, outcome: 'invalid', message: re.reason };
    return republish(ctx, letter.id, p.queue ?? letter.queue, re.json, numberField(p, 'priority'), h, ch);
  };

export const discardStep: LetterStep = async (letter, h, ch) =>
  ackHeld(h, ch)
    ? { id: letter.id, outcome: 'ok', message: 'removed from the DLQ' }
    : { id: letter.id, outcome: 'error', message: 'the connection was lost; the letter stays' };

/** A Celery protocol 2 letter rebuilt as the potatoq message `potatoq call` would send (same id). */
export const convertStep =
  (ctx: RabbitCtx): LetterStep =>
  async (letter, h, ch) => {
    let built;
    try {
      built = celeryToPotatoq(letter.body.toString('utf8'), letter.payload, letter.queue, letter.id);
    } catch (e) {
      return {
        id: letter.id,
        outcome: 'invalid',
        message: e instanceof BuildMessageError || e instanceof CeleryConversionError ? e.message : `could not convert: ${String(e)}`,
      };
    }
    const out = await republish(ctx, letter.id, built.queue, built.json, 0, h, ch);
    return out.outcome === 'ok'
      ? { ...out, message: `converted to a potatoq task (${built.task}, id ${built.id}) and ${out.message}` }
      : out;
  };

export async function replayDead(ctx: RabbitCtx, ids: string[]): Promise<ActionResult> {
  return actionResult('replay', ctx.config.id, ids, await runOnLetters(ctx, ids, replayStep(ctx)));
}

/** The bulk redrive: one pass over the DLQs, publishes pipelined (see redriveLetters). */
export async function replayDeadPaced(ctx: RabbitCtx, ids: string[], pace: RedriveOptions): Promise<ActionResult> {
  return actionResult('replay', ctx.config.id, ids, await redriveLetters(ctx, ids, replayStep(ctx), pace));
}

export async function discardDead(ctx: RabbitCtx, ids: string[]): Promise<ActionResult> {
  return actionResult('discard', ctx.config.id, ids, await runOnLetters(ctx, ids, discardStep));
}

export async function convertCelery(ctx: RabbitCtx, ids: string[], pace?: PaceOptions): Promise<ActionResult> {
  return actionResult('replay', ctx.config.id, ids, await runOnLetters(ctx, ids, convertStep(ctx), pace));
}

/** potatoq's RabbitMQ `revoke`: nothing is removed; a REVOKED mark goes into the result backend. */
export async function revoke(ctx: RabbitCtx, ids: string[]): Promise<ActionResult> {
  if (!ctx.backend) throw new ConsoleError('Unsupported', 'Revoking tasks with RabbitMQ needs a result backend; set resultBackend');
  await ctx.backend.storeRevoked(ids, ctx.resultExpires);
  const msg = `marked REVOKED in the result backend; workers skip it when it comes up. The mark expires after result_expires (${ctx.resultExpires} s): a task still delayed by then will run`;
  return actionResult(
    'revoke',
    ctx.config.id,
    ids,
    [...new Set(ids)].map((id) => ({ id, outcome: 'ok' as const, message: msg })),
  );
}

export async function purge(ctx: RabbitCtx, queue: string): Promise<PurgeResult> {
  checkQueueName(queue);
  if (!(await ctx.link.checkQueue(queue))) throw new ConsoleError('NotFound', `RabbitMQ queue "${queue}" does not exist`);
  const removed = await ctx.link.withChannel(async (ch) => (await ch.purgeQueue(queue)).messageCount);
  return { brokerId: ctx.config.id, queue, removed };
}

/** potatoq's publish for a task due now: default exchange, its properties, confirm + mandatory. */
export async function enqueue(ctx: RabbitCtx, req: EnqueueRequest): Promise<EnqueueResult> {
  const now = Date.now() / 1000;
  const p = parsePotatoqEnqueue(req);
  const m = buildFromFields(p, now);
  if (m.eta !== null)
    throw new ConsoleError('InvalidInput', DELAY_REFUSAL, { [p.countdown !== undefined ? 'countdown' : 'eta']: DELAY_REFUSAL });
  checkQueueName(m.queue);
  const sent = await ctx.link.withConfirmChannel((ch) =>
    publishConfirmed(ch, '', m.queue, Buffer.from(m.json, 'utf8'), potatoqProperties(m.id, m.priority)),
  );
  if (sent === 'unroutable') throw new ConsoleError('NotMigrated', `${missingQueue(m.queue)}; nothing was sent`);
  return { brokerId: ctx.config.id, id: m.id, queue: m.queue, task: m.task, state: 'ready', payload: m.json };
}
