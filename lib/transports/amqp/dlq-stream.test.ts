import type { Channel, ConsumeMessage } from 'amqplib';
import { describe, expect, it } from 'vitest';
import { DlqStream, MAX_LANES, type Delivery } from './dlq-stream';

// A fake of what DlqStream relies on in RabbitMQ 4's quorum queues: per-consumer prefetch,
// delivery tags per channel, an unknown tag closes the channel, returned letters go behind the
// letters still ready in the order the queue applies the returns (as RabbitMQ 4.3 does:
// dlq-read.int.test.ts), and each channel's returns reach the queue after a delay of its own
// (channels are separate processes).

interface Unacked {
  tag: number;
  id: number;
  ctag: string;
}

class FakeQueue {
  ready: number[] = [];
  returns: number[] = [];
  opened = 0;
  failOpenAfter = Infinity;
  constructor(n: number) {
    for (let i = 0; i < n; i++) this.ready.push(i);
  }
  /** What a reader takes next, in order: returns land behind the letters still ready. */
  order = () => [...this.ready, ...this.returns];
  take = () => (this.ready.length ? this.ready.shift() : this.returns.shift());
  count = () => this.returns.length + this.ready.length;
  open = async (): Promise<Channel> => {
    if (this.opened >= this.failOpenAfter) throw new Error('No channels left to allocate');
    return new FakeChannel(this, this.opened++) as unknown as Channel;
  };
}

class FakeChannel {
  unacked: Unacked[] = [];
  private nextTag = 1;
  private n = 0;
  private consumer: { ctag: string; cb: (m: ConsumeMessage | null) => void; holds: number } | null = null;
  private ctags = 0;
  closed = false;
  /** Later channels' returns apply sooner: without the wait they would overtake. */
  private readonly delay: number;
  constructor(
    private readonly q: FakeQueue,
    readonly no: number,
  ) {
    this.delay = Math.max(0, 30 - no * 5);
  }
  on() {}
  async prefetch(n: number) {
    this.n = n;
  }
  async consume(_q: string, cb: (m: ConsumeMessage | null) => void) {
    const ctag = `c${this.no}.${this.ctags++}`;
    this.consumer = { ctag, cb, holds: 0 };
    setTimeout(() => this.pump(), 0);
    return { consumerTag: ctag };
  }
  private pump() {
    const c = this.consumer;
    while (c && c === this.consumer && c.holds < this.n && this.q.count() > 0) {
      const id = this.q.take()!;
      const tag = this.nextTag++;
      this.unacked.push({ tag, id, ctag: c.ctag });
      c.holds++;
      c.cb({
        content: Buffer.from(String(id)),
        fields: { deliveryTag: tag, consumerTag: c.ctag },
        properties: {},
      } as unknown as ConsumeMessage);
    }
  }
  async cancel() {
    this.consumer = null;
  }
  private settle(tag: number, multiple: boolean): Unacked[] {
    if (this.closed) throw new Error('Channel closed');
    const i = this.unacked.findIndex((u) => u.tag === tag);
    if (i < 0) {
      this.closed = true; // PRECONDITION_FAILED: the broker returns everything in its own order
      this.q.ready.push(...this.unacked.map((u) => u.id).reverse());
      this.unacked = [];
      throw new Error(`unknown delivery tag ${tag}`);
    }
    const out = multiple ? this.unacked.filter((u) => u.tag <= tag) : [this.unacked[i]!];
    this.unacked = this.unacked.filter((u) => !out.includes(u));
    for (const u of out) if (this.consumer?.ctag === u.ctag) this.consumer.holds--;
    setTimeout(() => this.pump(), 0);
    return out;
  }
  ack(m: ConsumeMessage, multiple = false) {
    this.settle(m.fields.deliveryTag, multiple);
  }
  nack(m: ConsumeMessage, multiple = false) {
    const back = this.settle(m.fields.deliveryTag, multiple).map((u) => u.id);
    setTimeout(() => this.q.returns.push(...back), this.delay);
  }
  nackAll() {
    const back = this.unacked.map((u) => u.id);
    this.unacked = [];
    setTimeout(() => this.q.returns.push(...back), this.delay);
  }
  async checkQueue() {
    return { messageCount: this.q.count() };
  }
  async close() {
    this.closed = true;
  }
}

const ch = (d: Delivery) => d.lane.ch as unknown as FakeChannel;

/** Reads `n` letters; acks those `want` picks on their own channel (through its AckBook). */
async function readAll(s: DlqStream, n: number, want: (id: number) => boolean): Promise<Delivery[]> {
  const got: Delivery[] = [];
  for (let i = 0; i < n; i++) {
    const d = await s.next();
    got.push(d);
    const id = Number(d.msg.content.toString());
    d.lane.acks.take(d.msg.fields.deliveryTag, want(id) ? 'busy' : 'kept');
    if (want(id) && d.lane.acks.settle(d.msg.fields.deliveryTag)) s.settled(d);
  }
  return got;
}

describe('DlqStream with lanes: a new channel per `prefetch` held letters', () => {
  it('reads in order, acks each letter on its own channel, and returns the kept ones in their order', async () => {
    const q = new FakeQueue(60);
    const s = new DlqStream(q.open, 'q.dlq', { lanes: true, prefetch: 8 });
    await s.start();
    const got = await readAll(s, 60, (id) => id % 3 === 0);
    expect(got.map((d) => Number(d.msg.content.toString()))).toEqual([...Array(60).keys()]);
    expect(s.lanes.length).toBeGreaterThanOrEqual(5); // 40 kept, at most 8 held per channel
    // Tags restart on each channel: an ack on the wrong one would be an unknown tag. The next
    // channel is opened ahead (at most one spare, which has delivered nothing).
    const used = s.lanes.filter((l) => l.delivered > 0);
    expect(s.lanes.length - used.length).toBeLessThanOrEqual(1);
    expect(new Set(got.filter((d) => d.msg.fields.deliveryTag === 1).map(ch)).size).toBe(used.length);
    expect(s.lanes.every((l) => (l.ch as unknown as FakeChannel).unacked.length <= 8)).toBe(true);
    await s.stop();
    await s.release();
    expect(q.order()).toEqual([...Array(60).keys()].filter((i) => i % 3 !== 0));
    expect(s.lanes.every((l) => (l.ch as unknown as FakeChannel).closed)).toBe(true);
  });

  it('does not nack an acked letter (an unknown tag would close the channel and scramble the order)', async () => {
    const q = new FakeQueue(12);
    const s = new DlqStream(q.open, 'q.dlq', { lanes: false, prefetch: 4 });
    await s.start();
    // One channel, three consumers; the last letter of each consumer is acked.
    await readAll(s, 12, (id) => id % 4 === 3);
    await s.stop();
    await s.release();
    expect(s.lanes).toHaveLength(1);
    expect(q.order()).toEqual([0, 1, 2, 4, 5, 6, 8, 9, 10]);
  });

  it('hands over on the same channel when no new channel can be opened', async () => {
    const q = new FakeQueue(20);
    q.failOpenAfter = 2;
    const s = new DlqStream(q.open, 'q.dlq', { lanes: true, prefetch: 5 });
    await s.start();
    await readAll(s, 20, () => false);
    expect(s.lanes).toHaveLength(2);
    expect(s.lanes[1]!.ends).toEqual([5, 10, 15, 0]); // three full consumers, then one that found nothing
    await s.stop();
    await s.release();
    expect(q.order()).toEqual([...Array(20).keys()]);
  });

  it('grows the prefetch so that MAX_LANES channels cover the depth', async () => {
    const depth = MAX_LANES * 3 + 7;
    const q = new FakeQueue(depth);
    const s = new DlqStream(q.open, 'q.dlq', { lanes: true, prefetch: 1, depth });
    await s.start();
    await readAll(s, depth, () => false);
    expect(s.lanes.length).toBeLessThanOrEqual(MAX_LANES);
    await s.stop();
    await s.release();
    expect(q.order()).toEqual([...Array(depth).keys()]);
  });
});
