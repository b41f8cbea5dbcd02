// The overview's dead counts per queue kept between polls (dead-tally.ts), on Redis and Valkey:
// kept while nothing they were counted from changes, counted again at once after any change
// (a letter dying or replayed, a hash revoked, rewritten or expiring), after the tracking
// connection is lost, and always where an ACL refuses tracking. Each answer equals a plain count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createDeadTally, type Tally } from './dead-tally';
import { redisKeys } from './keys';
import { connectRedis } from './server';
import { dropPrefix, newPrefix, PrivateRedis, redisServerAvailable, redisTargets } from '@/tests/support/redis';

const targets = await redisTargets();
const SCAN = 60;
const SLICE = 25;
const quiet = () => undefined;

/** The tally the slow way: one HGET per letter of the newest SCAN. */
async function truth(c: Redis, P: string): Promise<Tally> {
  const k = redisKeys(P);
  const out: Tally = { dead: new Map(), orphans: 0 };
  for (const id of await c.zrevrange(k.dead, 0, SCAN - 1)) {
    const q = await c.hget(k.job(id), 'q');
    if (q === null) out.orphans++;
    else out.dead.set(q, (out.dead.get(q) ?? 0) + 1);
  }
  return out;
}

async function seed(c: Redis, P: string, n: number) {
  const k = redisKeys(P);
  const pipe = c.pipeline();
  for (let i = 0; i < n; i++) pipe.hset(k.job(`d${i}`), { q: `q${i % 3}`, st: 'dead', r: 'x', p: '{}' }).zadd(k.dead, 1000 + i, `d${i}`);
  await pipe.exec();
}

describe.each(targets)('Redis dead-letter tally kept between polls ($name)', ({ url }) => {
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

  it('is kept while nothing changes and counted again right after any change', async () => {
    const P = newPrefix();
    prefixes.push(P);
    const k = redisKeys(P);
    await seed(c, P, SCAN + 20); // more letters than one tally reads
    const t = createDeadTally(c, P, { scan: SCAN, slice: SLICE, log: quiet });
    const untracked = async () => {
      throw new Error('tracking should be on');
    };
    try {
      const read = async () => {
        const got = await t.get(untracked);
        expect(got).toEqual(await truth(c, P));
        return t.lastHit;
      };
      expect(await read()).toBe(false);
      expect(await read()).toBe(true);
      expect(await read()).toBe(true);
      // Each change, read back at once: never the kept tally, always the new count.
      const changes: Array<[string, () => Promise<unknown>]> = [
        ['a letter dies', () => c.multi().hset(k.job('new1'), { q: 'q9', st: 'dead' }).zadd(k.dead, 5000, 'new1').exec()],
        ['a letter is replayed', () => c.zrem(k.dead, 'd70')],
        ["a letter's hash is deleted (potatoq's revoke leaves the id in P:dead)", () => c.del(k.job('d75'))],
        ["a letter's queue is rewritten", () => c.hset(k.job('d74'), 'q', 'elsewhere')],
        ["an orphan's id gets a hash again", () => c.hset(k.job('d75'), { q: 'q8', st: 'ready' })],
      ];
      for (const [what, change] of changes) {
        await change();
        expect(await read(), what).toBe(false);
        expect(await read(), `${what}, then nothing`).toBe(true);
      }
      // A hash that expires changes the tally without any command.
      await c.pexpire(k.job('d73'), 30);
      await new Promise((r) => setTimeout(r, 150));
      await c.exists(k.job('d73')); // expiry by access, if the server has not swept it yet
      expect(await read(), 'a hash expired').toBe(false);
      expect((await t.get(untracked)).orphans).toBe(1);
      // A letter older than the newest SCAN changes nothing the tally read: it stays kept.
      await c.hset(k.job('d1'), 'q', 'old');
      expect(await read(), 'outside the window').toBe(true);
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

  it('counts again after its connections are killed, then keeps the tally again', async () => {
    const t = createDeadTally(c, P, { scan: SCAN, slice: SLICE, log: quiet });
    try {
      const count = async () => truth(c, P);
      await t.get(count);
      await t.get(count);
      expect(t.lastHit).toBe(true);
      await c.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await c.hset(redisKeys(P).job('d3'), 'q', 'moved'); // changed while nobody is told
      await new Promise((r) => setTimeout(r, 100));
      expect(await t.get(count)).toEqual(await truth(c, P));
      expect(t.lastHit).toBe(false);
      await t.get(count);
      expect(t.lastHit).toBe(true);
    } finally {
      t.close();
    }
  });

  it('counts on every call for a user who may not turn tracking on', async () => {
    await c.acl('SETUSER', 'notrack', 'on', '>pw', '~*', '+@read', '+@connection', '+@scripting', '-client', 'resetchannels');
    const reader = connectRedis(server.url.replace('redis://', 'redis://notrack:pw@'), 5000);
    const logged: Array<Record<string, unknown>> = [];
    const t = createDeadTally(reader, P, { scan: SCAN, slice: SLICE, log: (e) => logged.push(e) });
    let counted = 0;
    const count = async () => {
      counted++;
      return truth(c, P);
    };
    try {
      for (let i = 0; i < 3; i++) expect(await t.get(count)).toEqual(await truth(c, P));
      expect([counted, t.lastHit]).toEqual([3, false]);
      expect(logged).toHaveLength(1); // refused once, not tried again on every poll
      expect(logged[0]?.event).toBe('console.redis-tally-untracked');
    } finally {
      t.close();
      reader.disconnect();
    }
  });
});
