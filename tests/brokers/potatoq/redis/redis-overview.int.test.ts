// The overview's per-queue reads by one script call per ONE_CALL queues give what the pipelined
// commands give (the path for users who may not run scripts), on Redis and Valkey: counts, band
// heads in claim order past MAX_BANDS, payloads (a head whose hash is gone has none), next due
// times, and more queues than one call reads.
// int-lane: uses redis/0 valkey/0 (a key prefix per test)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { PRIO, redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { listQueues, overviewPipelined } from '@/lib/brokers/potatoq/redis/overview-pipelined';
import { overviewByScript, ONE_CALL } from '@/lib/brokers/potatoq/redis/overview-script';
import { MAX_BANDS, MAX_QUEUES, readOverview } from '@/lib/brokers/potatoq/redis/reads-queues';
import { connectRedis } from '@/lib/transports/redis/server';
import { dropPrefix, newPrefix, redisTargets } from '@/tests/support/redis';

const targets = await redisTargets();
const msg = (id: string, enq: number) => JSON.stringify({ task: 't', id, queue: 'x', enqueued_at: enq, v: 1 });

describe.each(targets)('Redis overview by script ($name)', ({ url }) => {
  let c: Redis;
  const prefixes: string[] = [];
  beforeAll(async () => {
    c = connectRedis(url, 5000);
    await c.ping();
  });
  afterAll(async () => {
    for (const p of prefixes) await dropPrefix(c, p);
    c?.disconnect();
  });

  /** `queues` queues; the first has 10 priority bands (one more than MAX_BANDS visits) and a head without a hash. */
  async function seed(queues: number) {
    const P = newPrefix();
    prefixes.push(P);
    const k = redisKeys(P);
    const [t] = await c.time();
    const now = Number(t) * 1000;
    const pipe = c.pipeline();
    for (let q = 0; q < queues; q++) {
      const name = `q${String(q).padStart(3, '0')}`;
      pipe.sadd(k.queues, name);
      const bands = q === 0 ? MAX_BANDS + 2 : (q % 3) + 1;
      for (let b = 0; b < bands; b++) {
        // priorities 9, 8, …; the first task of each band was requeued to its front (no seq)
        for (let i = 0; i < 3; i++) {
          const id = `${name}-b${b}-${i}`;
          const prio = 9 - b - (q % 2 ? 12 : 0); // odd queues: negative priorities
          if (!(q === 0 && b === 1 && i === 0))
            pipe.hset(k.job(id), { q: name, p: msg(id, 1000 + 100 * q + 10 * b + i), pr: String(prio), d: '0', st: 'ready' });
          pipe.zadd(k.ready(name), -prio * PRIO + (i === 0 ? 0 : i + 7 * b), id);
        }
      }
      if (q % 4 === 0) pipe.zadd(k.delayed(name), now + 60_000 + q, `${name}-later`, now + 120_000, `${name}-later2`);
      if (q % 5 === 0) pipe.zadd(k.active(name), now - 600_000, `${name}-gone`, now + 600_000, `${name}-busy`);
    }
    pipe.sadd(k.queues, 'empty').hset(k.job('bad'), { q: 'bad', p: '{not json', pr: '0', d: '0', st: 'ready' });
    pipe.sadd(k.queues, 'bad').zadd(k.ready('bad'), 5, 'bad');
    pipe.zadd(k.dead, 1, 'd1', 2, 'd2');
    await pipe.exec();
    return P;
  }

  const byScript = async (P: string) => {
    const r = await overviewByScript(c, P, MAX_BANDS, (card) => listQueues(c, P, card, MAX_QUEUES));
    return { ...r, queues: [...r.queues].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
  };

  for (const queues of [5, ONE_CALL + 12]) {
    it(`reads ${queues + 2} queues as the pipelined commands do`, async () => {
      const P = await seed(queues);
      const [s, p] = [await byScript(P), await overviewPipelined(c, P, { maxQueues: MAX_QUEUES, bands: MAX_BANDS })];
      expect(s.queues).toEqual(p.queues);
      expect([s.deadTotal, s.card]).toEqual([2, queues + 2]);
      const first = s.queues.find((q) => q.name === 'q000')!;
      // MAX_BANDS heads of 10 bands, the next claim first; the second band's head has no hash.
      expect(first.heads.map((h) => h.id)).toEqual(Array.from({ length: MAX_BANDS }, (_, b) => `q000-b${b}-0`));
      expect(first.heads[1]!.payload).toBeNull();
      expect(first.approximate).toBe(true);
      expect(first).toMatchObject({ ready: 3 * (MAX_BANDS + 2), expiredLeases: 1, running: 2, scheduled: 2 });
      expect(s.queues.find((q) => q.name === 'q001')).toMatchObject({
        approximate: false,
        heads: [{ id: 'q001-b0-0' }, { id: 'q001-b1-0' }],
      });
      expect(s.queues.find((q) => q.name === 'empty')).toMatchObject({ ready: 0, heads: [], nextDueMs: null, approximate: false });
      // The mapped overview: the oldest waiting task among the visited heads, the next claim's payload.
      const o = await readOverview(c, P);
      const q0 = o.queues.find((q) => q.name === 'q000')!;
      expect(q0.oldestApproximate).toBe(true);
      expect(q0.head?.id).toBe('q000-b0-0');
      expect(o.queues.find((q) => q.name === 'bad')).toMatchObject({
        head: { id: 'bad', payload: '{not json' },
        oldestWaitingSeconds: null,
      });
      expect(o.queues.map((q) => q.name)).toEqual(s.queues.map((q) => q.name));
    });
  }
});
