import 'server-only';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { discoverQueues, requireBrowsable, type RabbitCtx } from './context';
import { withDlqLock, type Held } from './dlq';
import { AckBook, DlqStream, PREFETCH } from './dlq-walk';
import type { LetterStep, PaceOptions } from './letter-actions';
import { toLetter } from './letters';
import { dlqOf } from './topology';

/** Letters published but not yet acked at once, unpaced. A crash leaves at most this many in both
 *  places (plus, on a broker crash, the last acks it had not written): see docs/bulk.md. With
 *  RabbitMQ confirming a quorum queue's publishes in batches, the rate is about this window per
 *  confirm round trip: 32 gave ~1,000 msgs/s on a 100,000-letter DLQ, 256 several thousand. */
export const REDRIVE_WINDOW = 256;

export interface RedriveOptions extends PaceOptions {
  /** Publishes in flight; 1 when paced (the fault tests' "at most 2 in both places"). */
  window?: number;
  /** Deliveries per consumer before the next one takes over (tests: a small one exercises the hand-over). */
  prefetch?: number;
}

const windowOf = (pace: RedriveOptions) => Math.max(1, Math.trunc(pace.window ?? (pace.rate ? 1 : REDRIVE_WINDOW)));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Walk {
  wanted: Set<string>;
  outcomes: Map<string, ActionOutcome>;
  /** Ids whose step started and has not settled: on a failure they may be in both places. */
  inflight: Set<string>;
  total: number;
}

/**
 * One pass over `<queue>.dlq` under the browse lock: consumes the letters that were there when it
 * started (in order, nothing acked by the walk), runs `step` on the wanted ones with up to
 * `window` of them in flight (each acked only after its own publish confirm, runs of them with
 * one multiple ack), and leaves every other letter unacked; at the end one `nack(all, requeue)`
 * returns them, in their places (RabbitMQ 4.x keeps a requeued letter's position). A crash of
 * either side returns every unacked letter to the DLQ.
 */
async function walkDlq(ctx: RabbitCtx, queue: string, w: Walk, step: LetterStep, pace: RedriveOptions): Promise<void> {
  const dlq = dlqOf(queue);
  await withDlqLock(ctx.link, ctx.lockKey, dlq, () =>
    // Publishes go on a channel of their own: RabbitMQ runs each channel as its own process,
    // so the acks and deliveries of the DLQ's channel don't queue the publishes and confirms.
    ctx.link.withConfirmChannel(async (ch) =>
      ctx.link.withConfirmChannel(async (pub) => {
        pub.setMaxListeners(0); // one `return` listener per publish in flight
        const depth = (await ch.checkQueue(dlq)).messageCount;
        if (depth === 0) return;
        const stream = new DlqStream(ch, dlq, pace.prefetch ?? PREFETCH);
        const acks = new AckBook(ch);
        const running = new Set<Promise<void>>();
        let failure: unknown = null;
        let last = 0;
        await stream.start();
        try {
          for (let seen = 0; seen < depth && w.wanted.size > 0 && !failure; seen++) {
            const m = await stream.next();
            const tag = m.fields.deliveryTag;
            // The id is the message id when there is one (toLetter's rule): skip decoding the others.
            const mid: unknown = m.properties.messageId;
            const letter = typeof mid === 'string' && !w.wanted.has(mid) ? null : toLetter(m, queue);
            if (letter === null || !w.wanted.has(letter.id)) {
              acks.take(tag, 'kept'); // held unacked until the end
              continue;
            }
            await pace.gate?.();
            if (!pace.signal?.aborted) {
              const gap = pace.rate && pace.rate > 0 ? 1000 / pace.rate : 0; // the bulk runner may change it
              if (gap) {
                const wait = last + gap - Date.now();
                if (wait > 0) await sleep(wait);
                last = Date.now();
              }
              while (running.size >= windowOf(pace)) await Promise.race(running);
            }
            // A cancel can arrive while waiting for the pace or the window (the previous letter's
            // progress): this letter is then left unacked and goes back with the rest.
            if (failure || pace.signal?.aborted) {
              acks.take(tag, 'kept');
              break;
            }
            acks.take(tag, 'busy');
            const held: Held = {
              msg: m,
              queue,
              settled: false,
              ack: () => {
                const ok = acks.settle(tag);
                if (ok) stream.settled(m.fields.consumerTag);
                return ok;
              },
            };
            w.wanted.delete(letter.id); // only the first copy of an id is acted on
            w.inflight.add(letter.id);
            const p: Promise<void> = step(letter, held, pub).then(
              (out) => {
                if (!held.settled) acks.keep(tag); // refused (unroutable, invalid): it stays
                w.inflight.delete(letter.id);
                w.outcomes.set(letter.id, out);
                pace.onProgress?.(w.outcomes.size, w.total, out);
              },
              (e: unknown) => {
                failure ??= e;
              },
            );
            const tracked = p.finally(() => running.delete(tracked));
            running.add(tracked);
            if (pace.signal?.aborted) break;
          }
          await Promise.all(running);
          if (failure) throw failure;
        } finally {
          await Promise.all(running);
          // Everything still unacked on this channel goes back; on a closed channel the broker did it.
          await stream.stop();
          stream.release(); // every letter back, in its place
        }
      }),
    ),
  );
}

/**
 * Runs `step` on each requested letter in one pass over every potatoq DLQ (or `pace.queue`'s):
 * the bulk redrive. Same per-id outcomes as `runOnLetters` (missing, cancelled, failed), but
 * linear in the DLQ's depth instead of one browse from the head per batch.
 */
export async function redriveLetters(ctx: RabbitCtx, ids: string[], step: LetterStep, pace: RedriveOptions = {}): Promise<ActionOutcome[]> {
  await requireBrowsable(ctx);
  const w: Walk = { wanted: new Set(ids), outcomes: new Map(), inflight: new Set(), total: ids.length };
  const names = pace.queue ? [pace.queue] : (await discoverQueues(ctx)).names;
  const exists = await ctx.link.checkMany(names.map(dlqOf));
  try {
    for (const q of names) {
      if (w.wanted.size === 0 || pace.signal?.aborted) break;
      if (exists.get(dlqOf(q))) await walkDlq(ctx, q, w, step, pace);
    }
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    for (const id of w.inflight) {
      w.outcomes.set(id, {
        id,
        outcome: 'error',
        message: `the connection failed while this letter was being handled; it is back in the DLQ, and may also have reached its queue (check before retrying): ${why}`,
      });
    }
    for (const id of w.wanted) w.outcomes.set(id, { id, outcome: 'error', message: `not done, the letter stays in the DLQ: ${why}` });
    w.wanted.clear();
  }
  for (const id of w.wanted) {
    w.outcomes.set(
      id,
      pace.signal?.aborted
        ? { id, outcome: 'error', message: 'cancelled before this letter was reached; it stays in the DLQ' }
        : { id, outcome: 'missing', message: 'not in the dead letters (or held by another console at the time)' },
    );
  }
  return [...new Set(ids)].map((id) => w.outcomes.get(id)!);
}
