import 'server-only';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { discoverQueues, requireBrowsable, type RabbitCtx } from './context';
import { failWalk, finishWalk, newWalk, walkOutcomes, walkQueue, type WalkPace } from '@/lib/transports/amqp/dlq-walk';
import type { LetterStep } from './letter-actions';
import { toLetter } from '@/lib/potatoq/amqp-letter';
import { dlqOf } from './topology';

export { REDRIVE_WINDOW } from '@/lib/transports/amqp/dlq-walk';

export type RedriveOptions = WalkPace;

/**
 * Runs `step` on each requested letter in one pass over every potatoq DLQ (or `pace.queue`'s):
 * the bulk redrive. Same per-id outcomes as `runOnLetters` (missing, cancelled, failed), but
 * linear in the DLQ's depth instead of one browse from the head per batch (lib/brokers/potatoq/
 * lib/transports/amqp/dlq-walk.ts walks each queue).
 */
export async function redriveLetters(ctx: RabbitCtx, ids: string[], step: LetterStep, pace: RedriveOptions = {}): Promise<ActionOutcome[]> {
  await requireBrowsable(ctx);
  const w = newWalk(ids);
  const names = pace.queue ? [pace.queue] : (await discoverQueues(ctx)).names;
  const exists = await ctx.link.checkMany(names.map(dlqOf));
  try {
    for (const q of names) {
      if (w.wanted.size === 0 || pace.signal?.aborted) break;
      if (!exists.get(dlqOf(q))) continue;
      await walkQueue(
        {
          link: ctx.link,
          dlq: dlqOf(q),
          // The id is the message id when there is one (toLetter's rule): skip decoding the others.
          quickId: (m) => (typeof m.properties.messageId === 'string' ? (m.properties.messageId as string) : null),
          decode: (m) => toLetter(m, q),
          label: q,
          step,
        },
        w,
        pace,
      );
    }
  } catch (e) {
    failWalk(w, e);
  }
  finishWalk(w, pace, 'not in the dead letters (or held by another console at the time)');
  return walkOutcomes(w, ids);
}
