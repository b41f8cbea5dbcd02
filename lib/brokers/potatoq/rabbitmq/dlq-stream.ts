import 'server-only';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';

/** The most unacked deliveries one consumer may have (AMQP's prefetch is 16 bits; 0, "unlimited",
 *  is a credit of 2,000 on quorum queues, which held letters exhaust). */
export const PREFETCH = 65_535;

/**
 * The letters of one queue in order, from consumers on one channel, none of them acked by the
 * walk itself. A consumer stops receiving once it holds `prefetch` unacked letters, so when it
 * is full (the walk reports what it acked with `settled`) it is cancelled (its letters stay
 * held by the channel) and a new one takes over: a DLQ of any depth is read in one pass,
 * without a `basic.get` round trip per letter. A walk that acks as it goes never fills its
 * consumer and keeps the one. Rejects once the channel is gone or RabbitMQ cancels the consumer.
 */
export class DlqStream {
  private buf: ConsumeMessage[] = [];
  private head = 0;
  private wake: (() => void) | null = null;
  private gone: Error | null = null;
  private tag: string | null = null;
  /** Letters the current consumer holds (delivered, not acked): its used prefetch. */
  private fromCurrent = 0;
  private rotating: Promise<void> | null = null;
  private stopped = false;
  /** The last delivery tag of each consumer, in the consumers' order. */
  private readonly lastTag = new Map<string, number>();

  constructor(
    private readonly ch: ConfirmChannel,
    private readonly queue: string,
    private readonly prefetch = PREFETCH,
    /** false: a full consumer just stops receiving (a read of at most `prefetch` letters). */
    private readonly handOver = true,
  ) {
    ch.on('close', () => this.end(new Error('the channel closed')));
    ch.on('error', (e: Error) => this.end(e));
  }

  async start(): Promise<void> {
    await this.ch.prefetch(this.prefetch); // per consumer (global false): each new consumer gets its own
    await this.subscribe();
  }

  private async subscribe(): Promise<void> {
    this.fromCurrent = 0;
    const ok = await this.ch.consume(this.queue, (m) => this.push(m), { noAck: false });
    if (this.stopped) await this.ch.cancel(ok.consumerTag).catch(() => undefined);
    else this.tag = ok.consumerTag;
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

  private push(m: ConsumeMessage | null): void {
    if (m === null) {
      this.end(new Error('RabbitMQ cancelled the consumer (the DLQ was deleted?)'));
      return;
    }
    this.buf.push(m);
    this.lastTag.set(m.fields.consumerTag, m.fields.deliveryTag);
    if (++this.fromCurrent >= this.prefetch && this.handOver && !this.rotating && !this.stopped) {
      // Deliveries sent before the cancel arrive before cancel-ok, so the order holds.
      const tag = this.tag;
      this.tag = null;
      this.rotating = (async () => {
        if (tag !== null) await this.ch.cancel(tag);
        if (!this.stopped) await this.subscribe();
      })()
        .catch((e: unknown) => this.end(e instanceof Error ? e : new Error(String(e))))
        .finally(() => (this.rotating = null));
    }
    this.poke();
  }

  /** A letter the walk acked: the consumer that delivered it has room for one more. */
  settled(consumerTag: string): void {
    if (consumerTag === this.tag) this.fromCurrent--;
  }

  async next(): Promise<ConsumeMessage> {
    for (;;) {
      if (this.head < this.buf.length) {
        const m = this.buf[this.head]!;
        this.buf[this.head++] = undefined as unknown as ConsumeMessage;
        if (this.head > 4096 && this.head * 2 > this.buf.length) {
          this.buf.splice(0, this.head); // amortised: shift() alone is O(n) on long arrays
          this.head = 0;
        }
        return m;
      }
      if (this.gone) throw this.gone;
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  /**
   * Returns every letter still held to the queue, in delivery order. RabbitMQ 4 puts returned
   * letters back ahead of the rest in the order it gets them, and one `nack(all)` over several
   * consumers returns them consumer by consumer in no set order: so one `nack(multiple)` per
   * consumer, oldest first. On a closed channel the broker has returned them (in its own order).
   */
  release(): void {
    try {
      for (const tag of this.lastTag.values()) this.ch.nack({ fields: { deliveryTag: tag } } as ConsumeMessage, true, true);
      this.ch.nackAll(true);
    } catch {
      /* the channel is gone */
    }
  }

  /** Cancels the consumer; what it delivered stays unacked on the channel. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.rotating;
    const tag = this.tag;
    this.tag = null;
    if (tag !== null) await this.ch.cancel(tag).catch(() => undefined);
  }
}

type TagState = 'kept' | 'busy' | 'done';

/**
 * Acks of one walk, coalesced: a run of settled letters at the front of everything the walk
 * took is acked with one `multiple` ack (one frame and one queue command instead of hundreds);
 * a settled letter behind a kept one (which `multiple` would ack too) is acked on its own.
 * Letters are registered in delivery order; acks are sent in the same tick as the settle.
 */
export class AckBook {
  private order: number[] = [];
  private head = 0;
  private readonly state = new Map<number, TagState>();
  private kept = 0;
  private scheduled = false;
  private broken = false;

  constructor(private readonly ch: ConfirmChannel) {}

  /** A letter taken by the walk: `kept` stays unacked to the end, `busy` will be settled. */
  take(tag: number, s: 'kept' | 'busy'): void {
    this.order.push(tag);
    this.state.set(tag, s);
    if (s === 'kept') this.kept++;
  }

  /** A taken letter its step left (refused): it stays unacked to the end, like a kept one. */
  keep(tag: number): void {
    if (this.state.get(tag) !== 'busy') return;
    this.state.set(tag, 'kept');
    this.kept++;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  /** The letter may be removed from the queue (its replay was confirmed); false if the channel is gone. */
  settle(tag: number): boolean {
    if (this.broken) return false;
    if (this.kept > 0 && this.order[this.head] !== tag && this.frontIsKept()) {
      // Behind a kept letter: no `multiple` can cover it.
      return this.ackOne(tag);
    }
    this.state.set(tag, 'done');
    this.schedule();
    return true;
  }

  private frontIsKept(): boolean {
    this.skipAcked();
    const t = this.order[this.head];
    return t !== undefined && this.state.get(t) === 'kept';
  }

  private skipAcked(): void {
    while (this.head < this.order.length && !this.state.has(this.order[this.head]!)) this.head++;
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }

  private ackOne(tag: number): boolean {
    try {
      this.ch.ack({ fields: { deliveryTag: tag } } as ConsumeMessage);
      this.state.delete(tag);
      return true;
    } catch {
      this.broken = true;
      return false;
    }
  }

  private flush(): void {
    this.scheduled = false;
    this.skipAcked();
    let last = -1;
    while (this.head < this.order.length) {
      const t = this.order[this.head]!;
      const s = this.state.get(t);
      if (s === undefined) {
        this.head++;
        continue;
      }
      if (s !== 'done') break;
      this.state.delete(t);
      last = t;
      this.head++;
    }
    try {
      if (last >= 0) this.ch.ack({ fields: { deliveryTag: last } } as ConsumeMessage, true);
      // Settled letters left behind a kept one go one by one (a busy front settles soon).
      if (this.frontIsKept())
        for (let i = this.head; i < this.order.length; i++) {
          const t = this.order[i]!;
          if (this.state.get(t) === 'done' && !this.ackOne(t)) return;
        }
    } catch {
      this.broken = true;
    }
  }
}
