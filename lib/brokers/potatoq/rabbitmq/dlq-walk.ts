import 'server-only';
import type { ConfirmChannel, ConsumeMessage, Message } from 'amqplib';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { ReplayPace } from '@/lib/brokers/types';
import type { AmqpLink } from './connection';
import { withDlqLock, type Held } from './dlq';

// One pass over a dead-letter queue on RabbitMQ 4.x, whatever system's letters it holds (the
// potatoq redrive and a Celery app's `deadLetterQueue` both walk with it): the system says how a
// message is decoded into a letter with an id and what the step does with a wanted one (publish
// with confirms, then ack; or ack only).

/** Letters published but not yet acked at once, unpaced. A crash leaves at most this many in both
 *  places (plus, on a broker crash, the last one acked): see docs/performance.md. */
export const REDRIVE_WINDOW = 32;

/** The most unacked deliveries a consumer may have (AMQP's prefetch is 16 bits; 0, "unlimited",
 *  is a credit of 2,000 on quorum queues, which held letters exhaust). Beyond it, basic.get. */
const PREFETCH = 65_535;

export interface WalkPace extends ReplayPace {
  /** Publishes in flight; 1 when paced (the fault tests' "at most 2 in both places"). */
  window?: number;
}

/** What one walk needs to know about the letters of the queue it walks. */
export interface WalkSpec<L extends { id: string }> {
  link: AmqpLink;
  /** Same server + vhost share the browse lock. */
  lockKey: string;
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

/** Deliveries of one consumer as an awaitable stream; rejects once the channel is gone. */
function deliveries(ch: ConfirmChannel, got: () => void) {
  const buf: ConsumeMessage[] = [];
  let head = 0;
  let wake: (() => void) | null = null;
  let gone: Error | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const end = (e: Error) => {
    gone ??= e;
    poke();
  };
  ch.on('close', () => end(new Error('the channel closed')));
  ch.on('error', (e: Error) => end(e));
  return {
    push(m: ConsumeMessage | null) {
      if (m !== null) got();
      if (m === null) end(new Error('RabbitMQ cancelled the consumer (the DLQ was deleted?)'));
      else buf.push(m);
      poke();
    },
    async next(): Promise<ConsumeMessage> {
      for (;;) {
        if (head < buf.length) {
          const m = buf[head]!;
          buf[head++] = undefined as unknown as ConsumeMessage;
          if (head > 4096 && head * 2 > buf.length) {
            buf.splice(0, head); // amortised: shift() alone is O(n) on long arrays
            head = 0;
          }
          return m;
        }
        if (gone) throw gone;
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
}

/**
 * One pass over `spec.dlq` under the browse lock: consumes the letters that were there when it
 * started (in order, nothing acked), runs `step` on the wanted ones with up to `window` of them in
 * flight (each acked only after its own publish confirm), and leaves every other letter unacked;
 * at the end one `nack(all, requeue)` returns them, in their places (RabbitMQ 4.x keeps a
 * requeued letter's position). A crash of either side returns every unacked letter to the DLQ.
 * Only the first copy of an id is acted on.
 */
export async function walkQueue<L extends { id: string }>(spec: WalkSpec<L>, w: Walk, pace: WalkPace): Promise<void> {
  const { dlq, link } = spec;
  await withDlqLock(link, spec.lockKey, dlq, () =>
    link.withConfirmChannel(async (ch) => {
      ch.setMaxListeners(0); // one `return` listener per publish in flight
      const depth = (await ch.checkQueue(dlq)).messageCount;
      if (depth === 0) return;
      const stream = deliveries(ch, () => got++);
      const running = new Set<Promise<void>>();
      let failure: unknown = null;
      let last = 0;
      let got = 0; // deliveries received while consuming
      await ch.prefetch(PREFETCH);
      let consumerTag: string | null = (await ch.consume(dlq, (m) => stream.push(m), { noAck: false })).consumerTag;
      let kept = 0; // letters kept unacked (not wanted)
      /** The next letter: consumed while the prefetch allows, then taken with basic.get. */
      const next = async (seen: number): Promise<Message | false> => {
        if (consumerTag !== null && kept + windowOf(pace) + 1 >= PREFETCH) {
          const tag = consumerTag;
          consumerTag = null;
          await ch.cancel(tag); // deliveries already sent arrive before cancel-ok: take them first
        }
        if (consumerTag !== null || seen < got) return stream.next();
        return ch.get(dlq, { noAck: false });
      };
      try {
        for (let seen = 0; seen < depth && w.wanted.size > 0 && !failure; seen++) {
          const m = await next(seen);
          if (m === false) break;
          const quick = spec.quickId?.(m) ?? null;
          const letter = quick !== null && !w.wanted.has(quick) ? null : spec.decode(m);
          if (letter === null || !w.wanted.has(letter.id)) {
            kept++; // held unacked until the end
            continue;
          }
          await pace.gate?.();
          if (pace.signal?.aborted) break;
          const gap = pace.rate && pace.rate > 0 ? 1000 / pace.rate : 0; // the bulk runner may change it
          if (gap) {
            const wait = last + gap - Date.now();
            if (wait > 0) await sleep(wait);
            last = Date.now();
          }
          while (running.size >= windowOf(pace)) await Promise.race(running);
          // A cancel can arrive while waiting for the pace or the window (the previous letter's
          // progress): this letter is then left unacked and goes back with the rest.
          if (failure || pace.signal?.aborted) break;
          const held: Held = { msg: m, queue: spec.label ?? dlq, settled: false };
          w.wanted.delete(letter.id); // only the first copy of an id is acted on
          w.inflight.add(letter.id);
          const p: Promise<void> = spec.step(letter, held, ch).then(
            (out) => {
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
        if (consumerTag !== null) await ch.cancel(consumerTag).catch(() => undefined);
        try {
          ch.nackAll(true);
        } catch {
          /* the channel is gone: the broker has returned them */
        }
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
