// A campaign's follow-up against the REAL Celery worker on RabbitMQ 4.3, results in Redis: the
// cases in celery-cases.ts. RabbitMQ finds no message by id, so before the worker runs the
// replayed tasks are unknown (with why), and an expired SUCCESS record is unknown, never gone
// or succeeded: the task might as well still wait in its queue.
// int-lane: owns rabbitmq; uses redis/9 (Celery workers on the shared vhost; results under a per-run prefix)
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';
import { connectRedis } from '@/lib/transports/redis/server';
import { newCeleryWorld, redisAvailable, redisDb } from '@/tests/brokers/celery/redis/support';
import { celeryCampaignCases } from './celery-cases';

const url = process.env.POTATOQ_TEST_RABBITMQ4_URL;
const mgmt = process.env.POTATOQ_TEST_RABBITMQ4_MGMT;
const redisUp = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const QUEUE = `cp-${tag}`;
const prefix = `cprmq-${tag}-`;
const base = newCeleryWorld(0, 9);
const w = { ...base, broker: url ?? '', env: { ...base.env, CT_BROKER: url ?? '', CT_RESULT_PREFIX: prefix } };

async function deleteQueue(): Promise<void> {
  const u = new URL(url!);
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  await fetch(`${mgmt}/api/queues/%2F/${encodeURIComponent(QUEUE)}`, { method: 'DELETE', headers: { authorization: `Basic ${auth}` } });
}

if (!url || !mgmt || !redisUp) {
  const line =
    '!!! RabbitMQ 4 is not configured (POTATOQ_TEST_RABBITMQ4_URL/_MGMT) or Redis is down: SKIPPING the Celery campaign suite !!!';
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  it.skip('campaign follow-up on Celery with RabbitMQ', () => undefined);
} else
  describe('campaign follow-up on Celery with RabbitMQ 4 and its real worker', () => {
    celeryCampaignCases({
      world: w,
      queue: QUEUE,
      open: () =>
        createCeleryRabbitAdapter({
          id: 'cp',
          name: 'cp',
          url,
          readOnly: false,
          options: { resultBackend: w.backend, resultKeyprefix: prefix, managementUrl: mgmt, inspectTimeoutMs: 1000 },
        }),
      waiting: { fate: 'unknown', detail: /RabbitMQ cannot find a message by id/ },
      expired: { fate: 'unknown', detail: /its record expired; RabbitMQ cannot find/ },
      async cleanup() {
        await deleteQueue().catch(() => undefined);
        const c = connectRedis(redisDb(9));
        const keys = await c.keys(`${prefix}*`);
        if (keys.length) await c.del(...keys);
        c.disconnect();
      },
    });
  });
