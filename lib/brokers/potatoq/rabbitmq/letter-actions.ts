import 'server-only';
import type { ConfirmChannel } from 'amqplib';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { ReplayPace } from '@/lib/brokers/types';
import { discoverQueues, requireBrowsable, type RabbitCtx } from './context';
import type { Held } from '@/lib/transports/amqp/dlq';
import { browseDlq } from './dlq';
import { toLetter, type Letter } from '@/lib/potatoq/amqp-letter';
import { dlqOf } from './topology';

/** Settles (acks) or leaves one held letter; `settled` tells browseDlq not to nack it. */
export type LetterStep = (letter: Letter, held: Held, ch: ConfirmChannel) => Promise<ActionOutcome>;

/** Pacing of a redrive (rate, pause through `gate`, cancel through `signal`). A pause longer
 *  than the broker's consumer_timeout (30 min) returns the held letters to the DLQ. */
export type PaceOptions = ReplayPace;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `step` on each requested letter, found by browsing every potatoq DLQ (or one) with
 * get + nack. A letter is acked only after `step` says so (e.g. its replay was confirmed),
 * so a crash of the console or the broker at any point leaves it in the DLQ. Ids not found
 * are `missing`; with several copies of one id only the first copy is acted on.
 */
export async function runOnLetters(ctx: RabbitCtx, ids: string[], step: LetterStep, pace: PaceOptions = {}): Promise<ActionOutcome[]> {
  await requireBrowsable(ctx);
  const wanted = new Set(ids);
  const outcomes = new Map<string, ActionOutcome>();
  const names = pace.queue ? [pace.queue] : (await discoverQueues(ctx)).names;
  const exists = await ctx.link.checkMany(names.map(dlqOf));
  const gap = pace.rate && pace.rate > 0 ? 1000 / pace.rate : 0;
  let last = 0;
  let inflight: string | null = null;
  try {
    for (const q of names) {
      if (wanted.size === 0 || pace.signal?.aborted) break;
      if (!exists.get(dlqOf(q))) continue;
      await browseDlq(
        ctx.link,
        q,
        ctx.browseLimit,
        async () => undefined,
        async (h, ch) => {
          const letter = toLetter(h.msg, q);
          if (!wanted.has(letter.id)) return false;
          await pace.gate?.();
          if (pace.signal?.aborted) return true;
          if (gap) {
            const wait = last + gap - Date.now();
            if (wait > 0) await sleep(wait);
            last = Date.now();
          }
          inflight = letter.id;
          const out = await step(letter, h, ch);
          wanted.delete(letter.id);
          inflight = null;
          outcomes.set(letter.id, out);
          pace.onProgress?.(outcomes.size, ids.length, out);
          return wanted.size === 0 || Boolean(pace.signal?.aborted);
        },
      );
    }
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (inflight !== null) {
      outcomes.set(inflight, {
        id: inflight,
        outcome: 'error',
        message: `the connection failed while this letter was being handled; it is back in the DLQ, and may also have reached its queue (check before retrying): ${why}`,
      });
      wanted.delete(inflight);
    }
    for (const id of wanted) outcomes.set(id, { id, outcome: 'error', message: `not done, the letter stays in the DLQ: ${why}` });
    wanted.clear();
  }
  for (const id of wanted) {
    outcomes.set(
      id,
      pace.signal?.aborted
        ? { id, outcome: 'error', message: 'cancelled before this letter was reached; it stays in the DLQ' }
        : {
            id,
            outcome: 'missing',
            message: `not in the dead letters (or beyond the first ${ctx.browseLimit} letters of its DLQ, or held by another console's browse)`,
          },
    );
  }
  return [...new Set(ids)].map((id) => outcomes.get(id)!);
}
