// The overview's dead counts per queue kept between polls (dead-tally.ts), on Redis 7.0 and on
// Valkey: the window of the newest letters is read once with plain commands, then only what the
// server reports changed is read again (a letter dying or replayed, a hash revoked, rewritten or
// expiring), and every answer equals a plain count, also after random changes and while a writer
// churns. After a flush or a lost connection it counts and reads the window again; where an ACL
// refuses tracking it counts on every poll.
// int-lane: uses redis/0 valkey/0 (a key prefix per test; flushes and kills only on a redis-server of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createDeadTally, ROW_BYTES, TOP, type DeadTally, type Tally } from '@/lib/brokers/potatoq/redis/dead-tally';
import { pageRows } from '@/lib/brokers/potatoq/redis/reads-pages';
import { redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { deadByQueue, DEAD_SCAN } from '@/lib/brokers/potatoq/redis/reads-queues';
import { checkServer, connectRedis } from '@/lib/transports/redis/server';
import { dropPrefix, newPrefix, PrivateRedis, redisServerAvailable, redisTargets } from '@/tests/support/redis';

const targets = await redisTargets();
const SCAN = DEAD_SCAN;
const quiet = () => undefined;

/** The tally the slow way: one HGET per letter of the newest `scan`. */
async function truth(c: Redis, P: string, scan = SCAN): Promise<Tally> {
  const k = redisKeys(P);
  const out: Tally = { dead: new Map(), orphans: 0 };
  const p = c.pipeline();
  for (const id of await c.zrevrange(k.dead, 0, scan - 1)) p.hget(k.job(id), 'q');
  for (const [, q] of (await p.exec()) ?? []) {
    if (typeof q !== 'string') out.orphans++;
    else out.dead.set(q, (out.dead.get(q) ?? 0) + 1);
  }
  return out;
}

/** The kept newest page equals the page read from Redis. */
async function samePage(t: DeadTally, c: Redis, P: string, limit: number, what: string) {
  const kept = await t.newest(limit);
  const read = await pageRows(c, P, redisKeys(P).dead, limit, null, true);
  expect(kept, what).toEqual({ entries: read.entries, raws: read.raws, more: read.more });
}

async function seed(c: Redis, P: string, n: number) {
  const k = redisKeys(P);
  const pipe = c.pipeline();
  for (let i = 0; i < n; i++) pipe.hset(k.job(`d${i}`), { q: `q${i % 3}`, st: 'dead', r: 'x', p: '{}' }).zadd(k.dead, 1000 + i, `d${i}`);
  await pipe.exec();
}

describe.each(targets)('Redis dead-letter tally kept between polls ($name)', ({ url }) => {
  let c: Redis;
  let valkey = false;
  const prefixes: string[] = [];
  beforeAll(async () => {
    c = connectRedis(url, 5000);
    valkey = (await checkServer(c)).server === 'valkey';
  });
  afterAll(async () => {
    for (const p of prefixes) await dropPrefix(c, p);
    c?.disconnect();
  });
  const fresh = () => {
    const P = newPrefix();
    prefixes.push(P);
    return P;
  };

  it('the server reports changes to keys plain commands read; keys a script reads by name only on Valkey', async () => {
    const P = fresh();
    const k = redisKeys(P);
    const sub = c.duplicate({ protocol: 2 });
    const trk = c.duplicate({ protocol: 2 });
    try {
      const id = await sub.client('ID');
      const seen: string[] = [];
      sub.on('message', (_ch: string, m: string) => seen.push(m));
      await sub.subscribe('__redis__:invalidate');
      await trk.client('TRACKING', 'ON', 'REDIRECT', String(id));
      await c.hset(k.job('a'), 'q', 'x');
      await trk.eval(`return redis.call('HGET', ARGV[1], 'q')`, 0, k.job('a'));
      await trk.hget(k.job('b'), 'q'); // a key that does not exist yet is tracked too
      await trk.zrevrange(k.dead, 0, 9);
      await c.hset(k.job('a'), 'q', 'y');
      await c.hset(k.job('b'), 'q', 'y');
      await c.zadd(k.dead, 1, 'b');
      await sub.ping();
      expect(seen.includes(k.job('a'))).toBe(valkey);
      expect(seen.filter((m) => m !== k.job('a'))).toEqual([k.job('b'), k.dead]);
    } finally {
      sub.disconnect();
      trk.disconnect();
    }
  });

  it('is kept while nothing changes and reads again only what changed', async () => {
    const P = fresh();
    const k = redisKeys(P);
    await seed(c, P, SCAN + 20); // more letters than the window holds
    let counted = 0;
    const count = (on: Redis) => {
      counted++;
      return deadByQueue(on, P);
    };
    const t = createDeadTally(c, P, { scan: SCAN, log: quiet });
    try {
      const read = async () => {
        expect(await t.get(count)).toEqual(await truth(c, P));
        return [t.lastHit, t.lastRead];
      };
      expect(await read()).toEqual([false, 0]); // counted while the window is read
      await t.settled();
      expect(await read()).toEqual([true, 0]);
      expect(await read()).toEqual([true, 0]);
      // Each change, read back at once: what the answer read again to be exact (P:dead; a letter's
      // queue; a letter's row, for the newest TOP).
      const changes: Array<[string, () => Promise<unknown>, number]> = [
        [
          'a letter dies (P:dead, its queue, its row)',
          () => c.multi().hset(k.job('new1'), { q: 'q9', st: 'dead' }).zadd(k.dead, 1e9, 'new1').exec(),
          3,
        ],
        ['a letter is replayed (P:dead, the letters that enter the window and the newest rows)', () => c.zrem(k.dead, `d${SCAN + 10}`), 3],
        ["a letter's hash is deleted (potatoq's revoke leaves the id in P:dead)", () => c.del(k.job(`d${SCAN + 15}`)), 2],
        ["a letter's queue is rewritten", () => c.hset(k.job(`d${SCAN + 14}`), 'q', 'elsewhere'), 2],
        ["an orphan's id gets a hash again", () => c.hset(k.job(`d${SCAN + 15}`), { q: 'q8', st: 'ready' }), 2],
        ['a letter outside the window changes', () => c.hset(k.job('d1'), 'q', 'old'), 0],
      ];
      for (const [what, change, reads] of changes) {
        await change();
        expect(await read(), what).toEqual([true, reads]);
        expect(await read(), `${what}, then nothing`).toEqual([true, 0]);
      }
      // The newest page is kept too: a change to one of its letters reads that letter again.
      await samePage(t, c, P, 50, 'newest page');
      expect([t.lastHit, t.lastRead]).toEqual([true, 0]);
      await c.hset(k.job(`d${SCAN + 19}`), 'r', 'a new reason');
      await samePage(t, c, P, 50, 'a newest letter rewritten');
      expect([t.lastHit, t.lastRead]).toEqual([true, 2]);
      expect(await t.newest(TOP)).toBeNull(); // more than the kept rows: read from Redis
      // A letter too big to keep: its page is read from Redis, the tally still kept.
      await c
        .multi()
        .hset(k.job('big'), { q: 'q1', st: 'dead', p: 'x'.repeat(ROW_BYTES) })
        .zadd(k.dead, 2e9, 'big')
        .exec();
      expect(await t.newest(10)).toBeNull();
      expect(await read(), 'a big letter dies').toEqual([true, 0]);
      await c.multi().zrem(k.dead, 'big').del(k.job('big')).exec();
      await samePage(t, c, P, 10, 'the big letter gone');
      // A hash that expires changes the tally without any command.
      await c.pexpire(k.job(`d${SCAN + 13}`), 30);
      await new Promise((r) => setTimeout(r, 150));
      await c.exists(k.job(`d${SCAN + 13}`)); // expiry by access, if the server has not swept it yet
      expect(await read(), 'a hash expired').toEqual([true, 2]);
      expect((await t.get(count)).orphans).toBe(1);
      expect(counted).toBe(1);
    } finally {
      t.close();
    }
  });

  it('equals a full count after random changes, and after a writer churned while it polled', async () => {
    const P = fresh();
    const k = redisKeys(P);
    const scan = 300; // a small window, so changes cross its edge often
    await seed(c, P, 400);
    const t = createDeadTally(c, P, { scan, log: quiet });
    const count = (on: Redis) => truth(on, P, scan);
    let n = 0;
    let score = 1e6;
    const pick = () => `d${Math.floor(Math.random() * 420)}`;
    const change = async () => {
      const id = pick();
      switch (n++ % 7) {
        case 0:
          return c
            .multi()
            .hset(k.job(`x${n}`), { q: `q${n % 5}`, st: 'dead' })
            .zadd(k.dead, score++, `x${n}`)
            .exec();
        case 1:
          return c.zrem(k.dead, id);
        case 2:
          return c.zadd(k.dead, score++, id); // dies again, newest now
        case 3:
          return c.hset(k.job(id), 'q', `q${n % 4}`);
        case 4:
          return c.del(k.job(id));
        case 5:
          return c.zadd(k.dead, Math.floor(Math.random() * 2000), id); // an old death, maybe outside
        default:
          return c.zremrangebyrank(k.dead, 0, 2); // potatoq trimming the oldest
      }
    };
    try {
      await t.get(count);
      await t.settled();
      for (let i = 0; i < 150; i++) {
        for (let j = Math.floor(Math.random() * 4); j > 0; j--) await change();
        expect(await t.get(count), `after step ${i}`).toEqual(await truth(c, P, scan));
        expect(t.lastHit).toBe(true);
        await samePage(t, c, P, 1 + (i % (TOP - 1)), `newest page after step ${i}`);
        expect(t.lastHit).toBe(true);
      }
      // A writer churning while polls run: each answer is some state; once it stops, the exact one.
      let writing = true;
      const writer = (async () => {
        while (writing) await change();
      })();
      for (let i = 0; i < 50; i++) await t.get(count);
      writing = false;
      await writer;
      expect(await t.get(count)).toEqual(await truth(c, P, scan));
      expect(t.lastHit).toBe(true);
      await samePage(t, c, P, TOP - 1, 'newest page after the writer');
    } finally {
      t.close();
    }
  });
});

describe.skipIf(!redisServerAvailable('the Redis tally faults suite'))('Redis dead-letter tally when tracking is lost or refused', () => {
  const server = new PrivateRedis(['--appendonly', 'no']);
  let c: Redis;
  const P = 'tally';
  beforeAll(async () => {
    c = await server.start();
    await seed(c, P, 30);
  });
  afterAll(() => server.stop());
  const count = (on: Redis) => deadByQueue(on, P);
  /** A tally whose window has been read and is answering. */
  const keptTally = async () => {
    const t = createDeadTally(c, P, { scan: SCAN, log: quiet });
    await t.get(count);
    await t.settled();
    await t.get(count);
    expect(t.lastHit).toBe(true);
    return t;
  };

  it('counts again after its connections are killed, then keeps the tally again', async () => {
    const t = await keptTally();
    try {
      await c.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await c.hset(redisKeys(P).job('d3'), 'q', 'moved'); // changed while nobody is told
      await new Promise((r) => setTimeout(r, 100));
      expect(await t.get(count)).toEqual(await truth(c, P));
      expect(t.lastHit).toBe(false);
      await t.get(count);
      await t.settled();
      await t.get(count);
      expect(t.lastHit).toBe(true);
    } finally {
      t.close();
    }
  });

  it('after a flush counts, then reads the window again', async () => {
    const t = await keptTally();
    try {
      await c.flushdb();
      await seed(c, P, 12);
      expect(await t.get(count)).toEqual(await truth(c, P));
      expect(t.lastHit).toBe(false);
      await t.settled();
      expect(await t.get(count)).toEqual(await truth(c, P));
      expect(t.lastHit).toBe(true);
    } finally {
      t.close();
    }
  });

  it('keeps the tally and the newest page for a user with exactly the documented ACL (docs/brokers/redis.md)', async () => {
    const reads =
      'SMEMBERS SSCAN SCARD ZCARD ZCOUNT ZRANGE ZREVRANGE ZRANGEBYSCORE ZSCORE HMGET HGET HGETALL GET MGET PTTL SCAN TIME INFO CONFIG';
    const cmds = [...reads.split(' '), 'EVAL', 'EVALSHA', 'CLIENT|ID', 'CLIENT|TRACKING', 'SUBSCRIBE', 'PING'].map(
      (x) => `+${x.toLowerCase()}`,
    );
    await c.acl('SETUSER', 'documented', 'reset', 'on', '>pw', `~${P}:*`, 'resetchannels', '&__redis__:invalidate', ...cmds);
    const reader = connectRedis(server.url.replace('redis://', 'redis://documented:pw@'), 5000);
    const logged: Array<Record<string, unknown>> = [];
    const t = createDeadTally(reader, P, { scan: SCAN, log: (e) => logged.push(e) });
    try {
      await t.get(count);
      await t.settled();
      expect(await t.get(count)).toEqual(await truth(c, P));
      expect(t.lastHit).toBe(true);
      await samePage(t, c, P, 10, 'the newest page');
      expect(t.lastHit).toBe(true);
      expect(logged).toEqual([]);
    } finally {
      t.close();
      reader.disconnect();
    }
  });

  it('counts on every call for a user who may not turn tracking on', async () => {
    await c.acl('SETUSER', 'notrack', 'on', '>pw', '~*', '+@read', '+@connection', '+@scripting', '-client', 'resetchannels');
    const reader = connectRedis(server.url.replace('redis://', 'redis://notrack:pw@'), 5000);
    const logged: Array<Record<string, unknown>> = [];
    const t = createDeadTally(reader, P, { scan: SCAN, log: (e) => logged.push(e) });
    let counted = 0;
    const counting = (on: Redis) => {
      counted++;
      return deadByQueue(on, P);
    };
    try {
      for (let i = 0; i < 3; i++) expect(await t.get(counting)).toEqual(await truth(c, P));
      expect([counted, t.lastHit]).toEqual([3, false]);
      expect(logged).toHaveLength(1); // refused once, not tried again on every poll
      expect(logged[0]?.event).toBe('console.redis-tally-untracked');
    } finally {
      t.close();
      reader.disconnect();
    }
  });
});
