// The overview's dead counts per queue kept between polls (dead-tally.ts): where the server tracks
// keys read inside scripts (measured here: Valkey does, Redis 7.0 does not), kept while nothing
// they were counted from changes and counted again at once after any change (a letter dying or
// replayed, a hash revoked, rewritten or expiring); counted on every poll elsewhere, after the
// tracking connection is lost, and where an ACL refuses tracking. Each answer equals a plain count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createDeadTally, type Tally } from './dead-tally';
import { redisKeys } from './keys';
import { deadByQueue, DEAD_SCAN } from './reads-queues';
import { checkServer, connectRedis } from './server';
import { dropPrefix, newPrefix, PrivateRedis, redisServerAvailable, redisTargets } from '@/tests/support/redis';

const targets = await redisTargets();
const SCAN = DEAD_SCAN;
const quiet = () => undefined;

/** The tally the slow way: one HGET per letter of the newest SCAN. */
async function truth(c: Redis, P: string): Promise<Tally> {
  const k = redisKeys(P);
  const out: Tally = { dead: new Map(), orphans: 0 };
  const p = c.pipeline();
  for (const id of await c.zrevrange(k.dead, 0, SCAN - 1)) p.hget(k.job(id), 'q');
  for (const [, q] of (await p.exec()) ?? []) {
    if (typeof q !== 'string') out.orphans++;
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
  let tracks = false;
  const prefixes: string[] = [];
  beforeAll(async () => {
    c = connectRedis(url, 5000);
    tracks = (await checkServer(c)).server === 'valkey';
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

  it('the server tracks the keys a script reads by name exactly where the console keeps the tally', async () => {
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
      await c.hset(k.job('a'), 'q', 'y');
      await sub.ping();
      expect(seen.includes(k.job('a'))).toBe(tracks);
    } finally {
      sub.disconnect();
      trk.disconnect();
    }
  });

  it('is kept while nothing changes and counted again right after any change (counted on every poll where it cannot be)', async () => {
    const P = fresh();
    const k = redisKeys(P);
    await seed(c, P, SCAN + 20); // more letters than one tally reads
    let counted = 0;
    const count = (on: Redis) => {
      counted++;
      return deadByQueue(on, P);
    };
    const t = createDeadTally(c, P, { tracksScriptReads: async () => tracks, log: quiet });
    try {
      const read = async () => {
        expect(await t.get(count)).toEqual(await truth(c, P));
        return t.lastHit;
      };
      expect(await read()).toBe(false);
      expect(await read()).toBe(tracks);
      expect(await read()).toBe(tracks);
      // Each change, read back at once: never the kept tally, always the new count.
      const changes: Array<[string, () => Promise<unknown>]> = [
        ['a letter dies', () => c.multi().hset(k.job('new1'), { q: 'q9', st: 'dead' }).zadd(k.dead, 1e9, 'new1').exec()],
        ['a letter is replayed', () => c.zrem(k.dead, `d${SCAN + 10}`)],
        ["a letter's hash is deleted (potatoq's revoke leaves the id in P:dead)", () => c.del(k.job(`d${SCAN + 15}`))],
        ["a letter's queue is rewritten", () => c.hset(k.job(`d${SCAN + 14}`), 'q', 'elsewhere')],
        ["an orphan's id gets a hash again", () => c.hset(k.job(`d${SCAN + 15}`), { q: 'q8', st: 'ready' })],
      ];
      for (const [what, change] of changes) {
        await change();
        expect(await read(), what).toBe(false);
        expect(await read(), `${what}, then nothing`).toBe(tracks);
      }
      // A hash that expires changes the tally without any command.
      await c.pexpire(k.job(`d${SCAN + 13}`), 30);
      await new Promise((r) => setTimeout(r, 150));
      await c.exists(k.job(`d${SCAN + 13}`)); // expiry by access, if the server has not swept it yet
      expect(await read(), 'a hash expired').toBe(false);
      expect((await t.get(count)).orphans).toBe(1);
      // A letter older than the newest SCAN changes nothing the tally read.
      await c.hset(k.job('d1'), 'q', 'old');
      expect(await read(), 'outside the window').toBe(tracks);
      if (!tracks) expect(t.lastHit).toBe(false);
      expect(counted).toBe(tracks ? 7 : 16);
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

  // Tracking forced on (this is Redis 7.0): the mechanics of losing it, not what Redis tracks.
  it('counts again after its connections are killed, then keeps the tally again', async () => {
    const t = createDeadTally(c, P, { tracksScriptReads: async () => true, log: quiet });
    try {
      const count = (on: Redis) => deadByQueue(on, P);
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
    const t = createDeadTally(reader, P, { tracksScriptReads: async () => true, log: (e) => logged.push(e) });
    let counted = 0;
    const count = (on: Redis) => {
      counted++;
      return deadByQueue(on, P);
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
