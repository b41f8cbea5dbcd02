import 'server-only';
import type { ConfirmChannel, Message } from 'amqplib';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { ReplayPace } from '@/lib/brokers/types';
import type { AmqpLink } from './connection';
import { withDlqLock } from './browse-lock';
import type { Held } from './dlq';
import { DlqStream } from './dlq-stream';

// One pass over a dead-letter queue on RabbitMQ 4.x, whatever system's letters it holds (the
// potatoq redrive and a Celery app's `deadLetterQueue` both walk with it): the system says how a
// message is decoded into a letter with an id and what the step does with a wanted one (publish
// with confirms, then ack; or ack only).

/** Letters published but not yet acked at once, unpaced. A crash leaves at most this many in both
 *  places (plus, on a broker crash, the last acks it had not written): see docs/bulk.md. With
 *  RabbitMQ confirming a quorum queue's publishes in batches, the rate is about this window per
 *  confirm round trip: 32 gave ~1,000 msgs/s on a 100,000-letter DLQ, 256 several thousand. */
export const REDRIVE_WINDOW = 256;

export interface WalkPace extends ReplayPace {
  /** Publishes in flight; 1 when paced (the fault tests' "at most 2 in both places"). */
  window?: number;
  /** Letters a channel may hold before the next one takes over (LANE_PREFETCH; tests: a small one
   *  exercises the hand-over). */
  prefetch?: number;
}

/** What one walk needs to know about the letters of the queue it walks. */
export interface WalkSpec<L extends { id: string }> {
  link: AmqpLink;
  /** The queue walked, as RabbitMQ names it. */
  dlq: string;
  /** The queue its letters are labelled with (`Held.queue`); the DLQ's own name when absent. */
  label?: string;
  /** The id a message says without decoding it (null: decode to know), to skip unwanted ones cheaply. */
  quickId?: (m: Message) => string | null;
  decode: (m: Message) => L;
  /** Settles (acks) the wanted letter, or leaves it held; `held.settled` says which. */
  step: (letter: L, held: Held, ch: ConfirmChannel) => Promise<ActionOutcome>;
}

/** The state of one action across the walks of its queues. */
export interface Walk {
  wanted: Set<string>;
  outcomes: Map<string, ActionOutcome>;
  /** Ids whose step started and has not settled: on a failure they may be in both places. */
  inflight: Set<string>;
  total: number;
}

export const newWalk = (ids: string[]): Walk => ({ wanted: new Set(ids), outcomes: new Map(), inflight: new Set(), total: ids.length });

const windowOf = (pace: WalkPace) => Math.max(1, Math.trunc(pace.window ?? (pace.rate ? 1 : REDRIVE_WINDOW)));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One pass over `spec.dlq` under the browse lock: consumes the letters that were there when it
 * started (in order, nothing acked by the walk; a channel holding `prefetch` letters hands over
 * to a consumer on a new channel, see DlqStream), runs `step` on the wanted ones with up to
 * `window` of them in flight (each acked on the channel it came from, only after its own publish
 * confirm, runs of them with one multiple ack: AckBook), and leaves
 * every other letter unacked; at the end they go back in their places (DlqStream.release). A
 * crash of either side returns every unacked letter to the DLQ. Only the first copy of an id is
 * acted on. Publishes go on a channel of their own: RabbitMQ runs each channel as its own
 * process, so the DLQ channel's deliveries and acks don't queue the publishes and confirms.
 */
export async function walkQueue<L extends { id: string }>(spec: WalkSpec<L>, w: Walk, pace: WalkPace): Promise<void> {
  const { dlq, link } = spec;
  await withDlqLock(link, dlq, () =>
    link.withConfirmChannel(async (pub) => {
      pub.setMaxListeners(0); // one `return` listener per publish in flight
      const depth = (await pub.checkQueue(dlq)).messageCount;
      if (depth === 0) return;
      const stream = new DlqStream(() => link.openChannel(), dlq, {
        lanes: true,
        depth,
        ...(pace.prefetch ? { prefetch: pace.prefetch } : {}),
      });
      const running = new Set<Promise<void>>();
      let failure: unknown = null;
      let last = 0;
      try {
        await stream.start();
        for (let seen = 0; seen < depth && w.wanted.size > 0 && !failure; seen++) {
          const d = await stream.next();
          const m = d.msg;
          const acks = d.lane.acks;
          const tag = m.fields.deliveryTag;
          const quick = spec.quickId?.(m) ?? null;
          const letter = quick !== null && !w.wanted.has(quick) ? null : spec.decode(m);
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
            queue: spec.label ?? dlq,
            settled: false,
            ack: () => {
              const ok = acks.settle(tag);
              if (ok) stream.settled(d);
              return ok;
            },
          };
          w.wanted.delete(letter.id); // only the first copy of an id is acted on
          w.inflight.add(letter.id);
          const p: Promise<void> = spec.step(letter, held, pub).then(
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
        await stream.stop();
        await stream.release(); // every letter back, in its place
      }
    }),
  );
}

/** After a walk failed with `e`: what happened to the ids in flight and to those not reached. */
export function failWalk(w: Walk, e: unknown): void {
  const why = e instanceof Error ? e.message : String(e);
  for (const id of w.inflight) {
    w.outcomes.set(id, {
      id,
      outcome: 'error',
      message: `the connection failed while this letter was being handled; it is back in the DLQ, and may also have reached its queue (check before retrying): ${why}`,
    });
  }
  w.inflight.clear();
  for (const id of w.wanted) w.outcomes.set(id, { id, outcome: 'error', message: `not done, the letter stays in the DLQ: ${why}` });
  w.wanted.clear();
}

/** The ids never reached: cancelled, or `missing` with `why`. */
export function finishWalk(w: Walk, pace: WalkPace, why: string): void {
  for (const id of w.wanted) {
    w.outcomes.set(
      id,
      pace.signal?.aborted
        ? { id, outcome: 'error', message: 'cancelled before this letter was reached; it stays in the DLQ' }
        : { id, outcome: 'missing', message: why },
    );
  }
  w.wanted.clear();
}

/** One outcome per distinct id, in the order asked. */
export const walkOutcomes = (w: Walk, ids: string[]): ActionOutcome[] => [...new Set(ids)].map((id) => w.outcomes.get(id)!);
