// A Celery replay on Redis that a console stopped half-way (the message sent, the FAILURE record
// not yet removed) is finished exactly once by the next replay, even when the sent message lies
// beyond what one read of its queue covers; and a failure stored after that send (the replayed
// task failing again) is replayed as any other. Real Redis 7 (db 7, this run's prefixes), the
// real Celery 5.7 producer and backend (tests/py/celery_seeder.py).
// int-lane: uses redis/7 (every key under per-run prefixes)
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { dropKeysAt } from '@/tests/support/redis';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import type { CeleryRedisCtx } from '@/lib/brokers/celery/redis/context';
import { replayFailures } from '@/lib/brokers/celery/redis/failures';
import { SCAN_LIMIT } from '@/lib/brokers/celery/redis/reads-tasks';
import { celeryConfig, newCeleryWorld, redisAvailable, redisDb, spawnCelerySeeder } from './support';
import { redisReplayBroker, replayedKey } from '@/lib/brokers/celery/redis/writes';

const DB = 7;
const up = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const brokerPrefix = `ctrb-${tag}:`;
const resultPrefix = `ctrr-${tag}:`;
const w = newCeleryWorld(DB, DB);
w.env = { ...w.env, CT_BROKER_PREFIX: brokerPrefix, CT_RESULT_PREFIX: resultPrefix };
const long = `long-${tag}`;
const short = `short-${tag}`;
let py: PySeeder;
let ctx: CeleryRedisCtx;
const a = createCeleryRedisAdapter(
  celeryConfig(w, 'replay-resume', { globalKeyprefix: brokerPrefix, resultKeyprefix: resultPrefix, queues: [long, short] }),
  (c) => {
    ctx = c;
  },
);

const waiting = async (queue: string) => {
  let n = 0;
  for (const k of ctx.keys.buckets(queue)) n += await ctx.client.llen(k);
  return n;
};

/** A replay whose console dies right after the message is written. */
const interrupted = (id: string) =>
  replayFailures(ctx, [id], redisReplayBroker(ctx), {
    sent: () => {
      throw new Error('console killed after the send');
    },
  });

if (up) {
  beforeAll(async () => {
    py = spawnCelerySeeder(w);
    await a.overview(); // opens the adapter (ctx)
  });
  afterAll(async () => {
    await py?.close();
    await a.close();
    await dropKeysAt(redisDb(DB), brokerPrefix);
    await dropKeysAt(redisDb(DB), resultPrefix);
  });

  describe('celery on redis: a replay stopped half-way', () => {
    it('is finished once by the next replay, though the sent message lies beyond one read of its queue', async () => {
      // More messages ahead of the replay than one read of a queue covers.
      const filler = Array.from({ length: SCAN_LIMIT }, (_, i) => ({ task: 'ct.add', queue: long, args: [i, 0] }));
      await py.call('enqueue_many', { messages: filler });
      const id = await py.call<string>('dead_letter', { task: 'ct.add', queue: long, args: [1, 2], reason: 'ValueError: boom' });

      await expect(interrupted(id)).rejects.toThrow('console killed');
      expect(await waiting(long)).toBe(SCAN_LIMIT + 1); // the replay went ...
      expect(await py.call<boolean>('is_dead', { id })).toBe(true); // ... and its failure stayed

      const r = await a.replayDead([id]);
      expect(r.succeeded).toEqual([]);
      expect(r.failed).toEqual([
        { id, outcome: 'already', message: expect.stringContaining('the failure is now removed, nothing sent again') },
      ]);
      expect(await waiting(long)).toBe(SCAN_LIMIT + 1); // no second copy
      expect(await py.call<boolean>('is_dead', { id })).toBe(false);
      expect(await ctx.client.exists(replayedKey(ctx, id))).toBe(0);

      // Nothing left to replay: the failure is gone.
      expect((await a.replayDead([id])).failed).toEqual([expect.objectContaining({ id, outcome: 'missing' })]);
      expect(await waiting(long)).toBe(SCAN_LIMIT + 1);
    });

    it('replays a failure stored after that send: the replayed task failed again', async () => {
      const id = await py.call<string>('dead_letter', { task: 'ct.add', queue: short, args: [3, 4], reason: 'ValueError: first' });
      await expect(interrupted(id)).rejects.toThrow('console killed');
      expect(await ctx.client.exists(replayedKey(ctx, id))).toBe(1);
      // A worker takes the replayed message and it fails again: a new FAILURE record, stored later.
      expect(await py.call<string | null>('claim', { queue: short })).toBe(id);
      await new Promise((r) => setTimeout(r, 5)); // date_done strictly after the send's record
      await py.call('dead_letter', { id, task: 'ct.add', queue: short, args: [3, 4], reason: 'ValueError: again' });
      expect(await py.call<number>('ack_all')).toBe(1);
      expect(await waiting(short)).toBe(0);

      const r = await a.replayDead([id]);
      expect(r.failed).toEqual([]);
      expect(r.succeeded).toEqual([{ id, outcome: 'ok', message: expect.stringContaining(`sent again to ${short}`) }]);
      expect(await waiting(short)).toBe(1);
      expect(await py.call<boolean>('is_dead', { id })).toBe(false);
      expect(await ctx.client.exists(replayedKey(ctx, id))).toBe(0);
    });
  });
} else {
  it.skip('Celery on Redis (Redis not reachable)', () => {});
}
