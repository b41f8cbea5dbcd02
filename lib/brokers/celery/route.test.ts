import { describe, expect, it, vi } from 'vitest';
import { memoRoutes, resolveReplayQueue, type QueueBinding, type QueueRoutes } from './route';

const routes = (bindings: QueueBinding[], lists: string[] = []): QueueRoutes => ({
  bindings,
  isQueue: async (name) => lists.includes(name),
});
const b = (exchange: string, routingKey: string, queue: string): QueueBinding => ({ exchange, routingKey, queue });

describe("a replay's queue from the record's `queue` (a queue's name or a routing key)", () => {
  it('uses a queue a binding names as it is, with nothing to say', async () => {
    expect(await resolveReplayQueue('orders', routes([b('shop', 'orders.new', 'orders'), b('orders', 'orders', 'orders')]))).toEqual({
      kind: 'queue',
      queue: 'orders',
      note: '',
    });
  });

  it('uses a queue with no binding but an existing list as it is', async () => {
    expect(await resolveReplayQueue('left', routes([b('left', 'orders', 'x')], ['left']))).toEqual({
      kind: 'queue',
      queue: 'left',
      note: '',
    });
  });

  it('sends to the one queue bound under the routing key, and says so', async () => {
    const to = await resolveReplayQueue('orders.new', routes([b('shop', 'orders.new', 'orders'), b('celery', 'celery', 'celery')]));
    expect(to).toEqual({ kind: 'queue', queue: 'orders', note: ' (bound to routing key orders.new on exchange shop)' });
  });

  it('counts one queue bound under the key on two exchanges as one, naming both exchanges', async () => {
    const to = await resolveReplayQueue('k', routes([b('b', 'k', 'q'), b('a', 'k', 'q')]));
    expect(to).toEqual({ kind: 'queue', queue: 'q', note: ' (bound to routing key k on exchange a, exchange b)' });
  });

  it('refuses a routing key bound to several queues, naming them and pointing at edit and replay', async () => {
    const to = await resolveReplayQueue('orders.new', routes([b('shop', 'orders.new', 'orders'), b('shop', 'orders.new', 'audit')]));
    expect(to.kind).toBe('several');
    if (to.kind !== 'several') return;
    expect(to.queues).toEqual(['audit', 'orders']);
    expect(to.why).toContain('audit, orders');
    expect(to.why).toContain('edit and replay');
  });

  it("keeps a name nothing is bound to (today's behaviour) and says no queue is bound to it", async () => {
    const to = await resolveReplayQueue('nowhere', routes([b('shop', 'orders.new', 'orders')]));
    expect(to.kind).toBe('queue');
    if (to.kind !== 'queue') return;
    expect(to.queue).toBe('nowhere');
    expect(to.note).toContain('no queue is bound to routing key nowhere');
  });
});

describe('memoRoutes', () => {
  it('reads the bindings once within its time, again after it, and again after a failed read', async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      let failNext = false;
      const get = memoRoutes(async () => {
        n++;
        if (failNext) throw new Error('down');
        return routes([]);
      }, 1000);
      await get();
      await get();
      expect(n).toBe(1);
      vi.advanceTimersByTime(1500);
      failNext = true;
      await expect(get()).rejects.toThrow('down');
      failNext = false;
      await get();
      expect(n).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
