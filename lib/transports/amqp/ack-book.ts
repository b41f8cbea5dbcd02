import 'server-only';
import type { Channel, ConsumeMessage } from 'amqplib';

type TagState = 'kept' | 'busy' | 'done';

/**
 * Acks of one walk, coalesced: a run of settled letters at the front of everything the walk
 * took is acked with one `multiple` ack (one frame and one queue command instead of hundreds);
 * a settled letter behind a kept one (which `multiple` would ack too) is acked on its own.
 * Letters are registered in delivery order; acks are sent in the same tick as the settle.
 * Delivery tags are per channel: one book per channel, its acks sent on that channel.
 */
export class AckBook {
  private order: number[] = [];
  private head = 0;
  private readonly state = new Map<number, TagState>();
  private kept = 0;
  private scheduled = false;
  private broken = false;
  /** Letters acked so far (sent: the channel applies its frames in order). */
  acked = 0;

  /** Tags are the channel's deliveries in order: every tag up to this one was taken. */
  private lastTaken = 0;

  constructor(private readonly ch: Channel) {}

  /** The highest tag up to `tag` that is not acked, or 0: a `multiple` nack of an acked tag is
   *  an unknown tag to RabbitMQ, which closes the channel. */
  lastUnacked(tag: number): number {
    let t = tag;
    while (t > 0 && t <= this.lastTaken && !this.state.has(t)) t--;
    return t;
  }

  /** A letter taken by the walk: `kept` stays unacked to the end, `busy` will be settled. */
  take(tag: number, s: 'kept' | 'busy'): void {
    this.lastTaken = tag;
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
      this.acked++;
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
    let run = 0;
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
      run++;
      this.head++;
    }
    try {
      if (last >= 0) {
        this.ch.ack({ fields: { deliveryTag: last } } as ConsumeMessage, true);
        this.acked += run;
      }
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
