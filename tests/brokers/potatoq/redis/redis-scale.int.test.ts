// What each read costs at depth, counted by a private redis-server's own INFO commandstats:
// 100,000 ready tasks in 20 queues and 20,000 dead letters. A page deep in a queue costs the
// commands page 1 costs; the overview costs a fixed number whatever the depth.
// int-lane: isolated (only a redis-server of its own, on a free port)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { PRIO, redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { DEAD_SCAN, listDead, listTasks, readOverview } from '@/lib/brokers/potatoq/redis/reads';
import { DEAD_SLICE } from '@/lib/brokers/potatoq/redis/reads-queues';
import { decodeCursor, encodeCursor } from '@/lib/brokers/potatoq/redis/rows';
import { PrivateRedis, redisServerAvailable } from '@/tests/support/redis';

const have = redisServerAvailable('the Redis scale suite');
const QUEUES = 20;
const PER_QUEUE = 5000;
const DEAD = 20_000;

/** Calls and microseconds per command since the last reset (the private server serves only this test). */
async function stats(c: Redis): Promise<{ calls: number; usec: number; by: Record<string, number> }> {
  const text = await c.info('commandstats');
  let calls = 0;
  let usec = 0;
  const by: Record<string, number> = {};
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    if (m[1] === 'info' || m[1] === 'config|resetstat') continue;
    calls += Number(m[2]);
    usec += Number(m[3]);
    by[m[1]!] = Number(m[2]);
  }
  return { calls, usec, by };
}

describe.skipIf(!have)('Redis reads at depth', () => {
  const server = new PrivateRedis();
  let c: Redis;
  const P = 'scale';
  const k = redisKeys(P);
  beforeAll(async () => {
    c = await server.start();
    await c.config('SET', 'appendonly', 'no');
    for (let q = 0; q < QUEUES; q++) {
      const queue = `q${q}`;
      const pipe = c.pipeline().sadd(k.queues, queue);
      for (let i = 0; i < PER_QUEUE; i++) {
        const id = `${queue}-${i}`;
        const prio = i % 3;
        pipe.hset(k.job(id), {
          q: queue,
          p: `{"task":"t","id":"${id}","queue":"${queue}","enqueued_at":${1000 + i},"v":1}`,
          pr: String(prio),
          d: '0',
          st: 'ready',
        });
        pipe.zadd(k.ready(queue), -prio * PRIO + i + 1, id);
      }
      await pipe.exec();
    }
    const pipe = c.pipeline();
    for (let i = 0; i < DEAD; i++) {
      pipe.hset(k.job(`d${i}`), {
        q: `q${i % QUEUES}`,
        p: `{"task":"t","id":"d${i}"}`,
        pr: '0',
        d: '1',
        st: 'dead',
        r: 'boom',
        died: String(i),
      });
      pipe.zadd(k.dead, i, `d${i}`);
    }
    await pipe.exec();
  }, 120_000);
  afterAll(() => server.stop());

  async function cost<T>(fn: () => Promise<T>): Promise<{ calls: number; usec: number; by: Record<string, number>; value: T }> {
    await c.config('RESETSTAT');
    const value = await fn();
    const s = await stats(c);
    return { calls: s.calls, usec: s.usec, by: s.by, value };
  }

  it('a page deep in a queue costs the commands of page 1', async () => {
    await listTasks(c, P, 'q7', 'ready', 1, null); // loads the page script (NOSCRIPT → EVAL once)
    const first = await cost(() => listTasks(c, P, 'q7', 'ready', 50, null));
    const all = await c.zrange(k.ready('q7'), 0, '-1', 'WITHSCORES');
    const at = 2 * 4000; // the 4000th task, deep in the lowest band
    const deep = await cost(() => listTasks(c, P, 'q7', 'ready', 50, encodeCursor(all[at + 1]!, all[at]!)));
    expect(first.value.items).toHaveLength(50);
    expect(deep.value.items.map((r) => r.id)).toEqual(all.filter((_, i) => i % 2 === 0).slice(4001, 4051));
    // One script call each (commandstats counts the commands it runs): page 1 is EVALSHA, ZRANGE,
    // TIME and 50 HMGET; a deep page adds the cursor's ZSCORE and ZRANK.
    expect(first.calls).toBe(53);
    expect(deep.calls).toBe(first.calls + 2);
    expect(deep.usec).toBeLessThan(first.usec * 3 + 500);
    expect(decodeCursor(deep.value.nextCursor!)?.id).toBe(deep.value.items[49]!.id);
    const deadDeep = await cost(() => listDead(c, P, 50, encodeCursor('10000', 'd10000')));
    expect(deadDeep.value.items[0]?.id).toBe('d9999');
    expect(deadDeep.calls).toBeLessThanOrEqual(55);
  });

  it('the overview costs a fixed number of commands whatever the depth', async () => {
    await readOverview(c, P); // loads the dead-count script (NOSCRIPT → EVAL once)
    const o = await cost(() => readOverview(c, P));
    expect(o.value.queues).toHaveLength(QUEUES);
    expect(o.value.queues.every((q) => q.ready === PER_QUEUE)).toBe(true);
    expect(o.value.deadExact).toBe(false); // 20,000 > DEAD_SCAN: per-queue dead counts are lower bounds
    expect(o.value.queues.reduce((n, q) => n + q.dead, 0)).toBe(DEAD_SCAN);
    // Tallied in slices by the script: the same counts as one HGET per letter of the newest DEAD_SCAN.
    const newest = await c.zrevrange(k.dead, 0, DEAD_SCAN - 1);
    const qs = await Promise.all(newest.map((id) => c.hget(k.job(id), 'q')));
    const truth = new Map<string, number>();
    for (const q of qs) if (q) truth.set(q, (truth.get(q) ?? 0) + 1);
    expect(new Map(o.value.queues.filter((q) => q.dead > 0).map((q) => [q.name, q.dead]))).toEqual(truth);
    // One overview script call (TIME, SCARD, ZCARD, SMEMBERS, then per queue 4 counts, the next
    // due, and per band (3 here) a head's ZRANGE/ZRANGEBYSCORE and its payload's HGET, the last
    // ZRANGEBYSCORE finding nothing) + DEAD_SCAN / DEAD_SLICE EVALSHAs, each running ZREVRANK (all
    // but the first), ZREVRANGE and its slice's HGETs inside Redis (a few replies instead of DEAD_SCAN)
    const slices = Math.ceil(DEAD_SCAN / DEAD_SLICE);
    const bound = 5 + 12 * QUEUES + 3 * slices - 1 + DEAD_SCAN;
    expect(o.by.evalsha).toBe(1 + slices);
    expect(o.calls).toBeLessThanOrEqual(bound);
    expect(o.value.queues[0]?.oldestWaitingSeconds).toBeGreaterThan(0);
  });
});
