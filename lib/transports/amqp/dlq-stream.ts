import 'server-only';
import type { Channel, ConsumeMessage } from 'amqplib';
import { AckBook } from './ack-book';

/** The most unacked deliveries one consumer may have (AMQP's prefetch is 16 bits; 0, "unlimited",
 *  is a credit of 2,000 on quorum queues, which held letters exhaust). */
export const PREFETCH = 65_535;

/**
 * Letters a walk that acks holds per channel before the next channel takes over. RabbitMQ's
 * channel keeps its unacked deliveries in a queue and a single (not `multiple`) ack searches
 * it from the front for its tag, so each ack costs the number of letters held before it on
 * that channel (measured on 4.3: 1,000 single acks behind 1,000 / 20,000 / 60,000 held letters
 * took 82 / 1,165 / 3,186 ms; behind 60,000 held on another channel, 52 ms).
 */
export const LANE_PREFETCH = 1_000;

/** Channels one walk opens at most: the adapter's one connection serves every other operation
 *  too (RabbitMQ allows 2,047 per connection by default). Past it the lane's prefetch grows. */
export const MAX_LANES = 256;

/** One channel of a stream: its deliveries are acked (and returned) on it, tags are its own. */
export interface Lane {
  readonly ch: Channel;
  readonly acks: AckBook;
  /** Deliveries on this channel. */
  delivered: number;
  /** The last delivery tag of each of its consumers, in their order. */
  readonly ends: number[];
}

interface Consumer {
  lane: Lane;
  tag: string | null;
  /** Letters it holds (delivered, not acked): its used prefetch. */
  holds: number;
  /** Its index in `lane.ends`. */
  at: number;
}

export interface Delivery {
  msg: ConsumeMessage;
  lane: Lane;
  readonly from: Consumer;
}

export interface StreamOptions {
  /** Letters one consumer may hold before the next takes over. */
  prefetch?: number;
  /** Whether each new consumer gets a channel of its own (a walk that acks), up to MAX_LANES. */
  lanes?: boolean;
  /** The queue's depth at the start: with lanes, the prefetch grows so that MAX_LANES cover it. */
  depth?: number;
  /** false: a full consumer just stops receiving, no other takes over (a read of at most `prefetch` letters). */
  handOver?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The letters of one queue in order, none of them acked by the stream itself. A consumer stops
 * receiving once it holds `prefetch` unacked letters, so when it is full (the walk reports its
 * acks with `settled`) it is cancelled (its letters stay held by its channel) and a new one
 * takes over: a DLQ of any depth is read in one pass, without a `basic.get` round trip per
 * letter. Deliveries sent before the cancel arrive before cancel-ok, and the next consumer
 * starts after it, so the order holds. With `lanes` the new consumer is on a new channel, so
 * no channel holds more than `prefetch` letters and an ack never searches a long list (see
 * LANE_PREFETCH); if a channel cannot be opened the consumer goes on the current one. The
 * broker delivers as far as the prefetch lets it, ahead of the walk, so a walk that acks
 * everything moves through lanes too (acked with `multiple`, they cost nothing). `next`
 * rejects once a channel is gone or RabbitMQ cancels the consumer.
 */
export class DlqStream {
  private buf: Delivery[] = [];
  private head = 0;
  private wake: (() => void) | null = null;
  private gone: Error | null = null;
  private cur: Consumer | null = null;
  private rotating: Promise<void> | null = null;
  private stopped = false;
  /** The next lane, opened while the current one fills: a hand-over is then a cancel and a
   *  consume, not also a `channel.open` and a `basic.qos` (two round trips per 1,000 letters). */
  private spare: Promise<Lane> | null = null;
  private readonly prefetch: number;
  /** Channels in the order their consumers started. */
  readonly lanes: Lane[] = [];

  constructor(
    private readonly open: () => Promise<Channel>,
    private readonly queue: string,
    private readonly opts: StreamOptions = {},
  ) {
    const asked = opts.prefetch ?? (opts.lanes ? LANE_PREFETCH : PREFETCH);
    const spread = opts.lanes && opts.depth ? Math.ceil(opts.depth / MAX_LANES) : 0;
    this.prefetch = Math.min(PREFETCH, Math.max(1, asked, spread));
  }

  async start(): Promise<void> {
    await this.subscribe(await this.newLane());
    this.openSpare();
  }

  private openSpare(): void {
    if (!this.opts.lanes || this.stopped || this.lanes.length >= MAX_LANES) return;
    this.spare = this.newLane();
    this.spare.catch(() => undefined); // taken in rotate (the current lane then goes on)
  }

  private async newLane(): Promise<Lane> {
    const ch = await this.open();
    ch.on('close', () => this.end(new Error('the channel closed')));
    ch.on('error', (e: Error) => this.end(e));
    const lane: Lane = { ch, acks: new AckBook(ch), delivered: 0, ends: [] };
    this.lanes.push(lane);
    await ch.prefetch(this.prefetch); // per consumer (global false): each new consumer gets its own
    return lane;
  }

  private async subscribe(lane: Lane): Promise<void> {
    const c: Consumer = { lane, tag: null, holds: 0, at: lane.ends.push(0) - 1 };
    this.cur = c;
    const ok = await lane.ch.consume(this.queue, (m) => this.push(c, m), { noAck: false });
    if (this.stopped) await lane.ch.cancel(ok.consumerTag).catch(() => undefined);
    else c.tag = ok.consumerTag;
  }

  private end(e: Error): void {
    this.gone ??= e;
    this.poke();
  }

  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private push(c: Consumer, m: ConsumeMessage | null): void {
    if (m === null) {
      this.end(new Error('RabbitMQ cancelled the consumer (the DLQ was deleted?)'));
      return;
    }
    c.lane.delivered++;
    c.lane.ends[c.at] = m.fields.deliveryTag;
    this.buf.push({ msg: m, lane: c.lane, from: c });
    if (++c.holds >= this.prefetch && c === this.cur && this.opts.handOver !== false && !this.rotating && !this.stopped) this.rotate(c);
    this.poke();
  }

  private rotate(c: Consumer): void {
    const tag = c.tag;
    c.tag = null;
    this.rotating = (async () => {
      if (tag !== null) await c.lane.ch.cancel(tag);
      if (this.stopped) return;
      let lane = c.lane;
      if (this.spare) lane = await this.spare.catch(() => c.lane);
      this.spare = null;
      if (!this.stopped) await this.subscribe(lane);
      this.openSpare();
    })()
      .catch((e: unknown) => this.end(e instanceof Error ? e : new Error(String(e))))
      .finally(() => (this.rotating = null));
  }

  /** A letter the walk acked: the consumer that delivered it has room for one more. */
  settled(d: Delivery): void {
    if (d.from === this.cur) d.from.holds--;
  }

  async next(): Promise<Delivery> {
    for (;;) {
      if (this.head < this.buf.length) {
        const d = this.buf[this.head]!;
        this.buf[this.head++] = undefined as unknown as Delivery;
        if (this.head > 4096 && this.head * 2 > this.buf.length) {
          this.buf.splice(0, this.head); // amortised: shift() alone is O(n) on long arrays
          this.head = 0;
        }
        return d;
      }
      if (this.gone) throw this.gone;
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  /** Cancels the consumer; what it delivered stays unacked on its channel. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.rotating;
    await this.spare?.catch(() => undefined); // in `lanes` (closed by release), delivered nothing
    const c = this.cur;
    const tag = c?.tag ?? null;
    if (c) c.tag = null;
    if (c && tag !== null) await c.lane.ch.cancel(tag).catch(() => undefined);
  }

  /**
   * Returns every letter still held to the queue, in delivery order, then closes the channels.
   * RabbitMQ 4.3 puts returned letters behind those still ready, in the order it applies the
   * returns (`dlq-read.int.test.ts` pins it), and one `nack(multiple)` over several consumers
   * returns them consumer by consumer in no set order: so one `nack(multiple)` per consumer,
   * oldest first. A walk holds every letter the DLQ had when it started, so they come back in
   * their order; letters dead-lettered meanwhile (still ready) end up ahead of them. Channels are separate processes,
   * so before the next channel's nacks this one's must be applied, and before a channel closes
   * (a closed channel's letters go back in the broker's own order): the queue's ready count is
   * read on this channel (after its nacks) until it has grown by what it returned (at most
   * `settleMs`; letters dead-lettered meanwhile can end that wait early). A channel already
   * closed has had its letters returned by the broker (in its own order).
   */
  async release(settleMs = 5_000): Promise<void> {
    const held = this.lanes.filter((l) => l.delivered > l.acks.acked);
    let want = held.length > 0 ? await countReady(held[0]!.ch, this.queue) : -1;
    for (const lane of held) {
      try {
        // Per consumer up to its last letter not acked; the last one's with `nackAll` (tag 0).
        for (const end of lane.ends.slice(0, -1)) {
          const tag = lane.acks.lastUnacked(end);
          if (tag > 0) lane.ch.nack({ fields: { deliveryTag: tag } } as ConsumeMessage, true, true);
        }
        lane.ch.nackAll(true);
      } catch {
        continue; // this channel is gone: its letters are back already
      }
      if (want < 0) continue;
      want += lane.delivered - lane.acks.acked;
      const until = Date.now() + settleMs;
      for (;;) {
        const n = await countReady(lane.ch, this.queue);
        if (n < 0 || n >= want || Date.now() >= until) break;
        await sleep(2);
      }
    }
    await Promise.all(this.lanes.map((l) => l.ch.close().catch(() => undefined)));
  }
}

/** The queue's ready count read through `ch` (so after what `ch` sent before); -1 if it can't be read. */
const countReady = (ch: Channel, queue: string): Promise<number> =>
  ch.checkQueue(queue).then(
    (ok) => ok.messageCount,
    () => -1,
  );
