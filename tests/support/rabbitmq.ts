// Test helpers for the RabbitMQ adapter and round trips (not shipped code): the brokers'
// addresses, the loud skip, the potatoq seeder (tests/py/seeder_rabbit.py) and a poller.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import amqp from 'amqplib';
import { ROOT, spawnPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { redisProblem } from '@/tests/support/redis-ping';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { createRabbitmqAdapter, type RabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';

export const RMQ4_URL = process.env.POTATOQ_TEST_RABBITMQ4_URL ?? 'amqp://potatoq:potatoq@127.0.0.1:5673/';
export const RMQ4_MGMT = process.env.POTATOQ_TEST_RABBITMQ4_MGMT ?? 'http://127.0.0.1:15673';
export const RMQ3_URL = process.env.POTATOQ_TEST_RABBITMQ3_URL ?? 'amqp://guest:guest@127.0.0.1:5672/';
export const RMQ3_MGMT = process.env.POTATOQ_TEST_RABBITMQ3_MGMT ?? 'http://127.0.0.1:15672';
export const REDIS_URL = process.env.POTATOQ_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
export const PY_DIR = path.join(ROOT, 'tests/py');
/** potatoq reads `host//` (and `host/`) as vhost `/`, like Celery; a named vhost (`host/v`) is as is. */
export const potatoqUrl = (url: string) =>
  /^amqps?:\/\/[^/]+\/[^/]+$/.test(url) ? url : url.replace(/\/?$/, '//').replace(/\/\/\/$/, '//');

/** The server version when RabbitMQ answers; otherwise a loud line (a failure when services are required). */
export async function rabbitVersion(url: string, label: string, want?: (major: number) => boolean): Promise<string | null> {
  let why: string;
  try {
    const c = await amqp.connect(url, { timeout: 3000 });
    const v = String((c.connection.serverProperties as Record<string, unknown>).version ?? '');
    await c.close();
    if (!want || want(Number.parseInt(v, 10))) return v;
    why = `it is RabbitMQ ${v}`;
  } catch (e) {
    why = (e as Error).message;
  }
  const line = `\n!!! ${label} is not available at ${url.replace(/\/\/[^@]*@/, '//***@')} (${why}): SKIPPING its suites (scripts/services.sh up; scripts/services.sh env shows the URLs) !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return null;
}

/** Redis for the result backend: a loud skip line (a failure when services are required). */
export async function redisAvailable(): Promise<boolean> {
  const why = await redisProblem(REDIS_URL);
  if (why === null) return true;
  const line = `\n!!! Redis is not reachable at ${REDIS_URL} (${why}): SKIPPING the RabbitMQ suites that keep results in Redis !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return false;
}

export const newTag = () => `ctr${randomBytes(4).toString('hex')}`;

export function spawnRabbitSeeder(url: string, backend: string, prefix: string): PySeeder {
  return spawnPySeeder('seeder_rabbit.py', [potatoqUrl(url), backend, prefix]);
}

export function rabbitAdapter(url: string, options: Record<string, unknown>, readOnly = false): RabbitmqAdapter {
  return createRabbitmqAdapter({ id: 'rmq', name: 'RabbitMQ test', url, readOnly, options });
}

/** The management API's own view of one queue (for waiting out its statistics interval). */
export async function mgmtQueue(base: string, queue: string): Promise<{ unacked: number; ready: number } | null> {
  const res = await fetch(`${base}/api/queues/%2F/${encodeURIComponent(queue)}`, {
    headers: { authorization: `Basic ${Buffer.from('potatoq:potatoq').toString('base64')}` },
  });
  if (!res.ok) return null;
  const q = (await res.json()) as { messages_unacknowledged?: number; messages_ready?: number };
  return { unacked: q.messages_unacknowledged ?? 0, ready: q.messages_ready ?? 0 };
}

export { until } from '@/tests/support/solo-worker';

export type { BrokerAdapter };
