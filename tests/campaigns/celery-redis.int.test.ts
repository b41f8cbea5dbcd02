// A campaign's follow-up against the REAL Celery worker on Redis (broker and result backend):
// the cases in celery-cases.ts. A waiting message is found in its Redis list; an expired
// SUCCESS record with no message left is gone.
// int-lane: owns redis/2 (a Celery worker on db 2, which edit-replay-celery also uses)
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import { connectRedis } from '@/lib/transports/redis/server';
import { newCeleryWorld, redisAvailable, redisDb } from '@/tests/brokers/celery/redis/support';
import { celeryCampaignCases } from './celery-cases';

const up = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const QUEUE = `cp-${tag}`;
const prefix = `cp-${tag}-`;
const w = newCeleryWorld(2, 2);
w.env = { ...w.env, CT_RESULT_PREFIX: prefix };

describe.skipIf(!up)('campaign follow-up on Celery with Redis and its real worker', () => {
  celeryCampaignCases({
    world: w,
    queue: QUEUE,
    open: () =>
      createCeleryRedisAdapter({
        id: 'cp',
        name: 'cp',
        url: w.broker,
        readOnly: false,
        options: { resultBackend: w.backend, resultKeyprefix: prefix },
      }),
    waiting: { fate: 'waiting', detail: /./ },
    expired: { fate: 'gone', detail: /record expired/ },
    async cleanup() {
      const c = connectRedis(redisDb(2));
      const keys = [...(await c.keys(`${prefix}*`)), ...(await c.keys(`*${QUEUE}*`))];
      if (keys.length) await c.del(...keys);
      c.disconnect();
    },
  });
});
