import { spawnSync } from 'node:child_process';
import amqp from 'amqplib';
import pg from 'pg';
import { PG_URL, REDIS_URL, RMQ4_MGMT, RMQ4_URL, type ExtraBrokers, pgTable } from './brokers-extra';
import { redisProblem } from '../tests/support/redis-ping';

// Direct access to the e2e run's PostgreSQL, RabbitMQ and Redis, to check what an action did
// in the broker itself (never through the console).

export async function pgRows<R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as R[];
  } finally {
    await c.end().catch(() => undefined);
  }
}

export interface PgJob {
  id: string;
  queue: string;
  task: string;
  state: number;
  payload: string;
}

export const pgJob = async (x: ExtraBrokers, id: string) =>
  (await pgRows<PgJob>(`SELECT id, queue, task, state, payload FROM ${pgTable(x, 'jobs')} WHERE id = $1`, [id]))[0];
export const pgDead = async (x: ExtraBrokers, id: string) => (await pgRows(`SELECT id FROM ${pgTable(x, 'dead')} WHERE id = $1`, [id]))[0];
export const pgResult = async (x: ExtraBrokers, id: string) =>
  (await pgRows<{ state: string; payload: string }>(`SELECT state, payload FROM ${pgTable(x, 'results')} WHERE id = $1`, [id]))[0];

/** Why PostgreSQL can't be used, or null when it answers. */
export async function pgProblem(): Promise<string | null> {
  try {
    await pgRows('SELECT 1');
    return null;
  } catch (e) {
    return `PostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, '//***@')}: ${(e as Error).message}`;
  }
}

/** Why RabbitMQ 4 + Redis can't be used, or null when both answer. */
export async function rabbitProblem(): Promise<string | null> {
  try {
    const c = await amqp.connect(RMQ4_URL, { timeout: 3000 });
    const v = String((c.connection.serverProperties as Record<string, unknown>).version ?? '');
    await c.close();
    if (Number.parseInt(v, 10) < 4)
      return `RabbitMQ at ${RMQ4_URL.replace(/\/\/[^@]*@/, '//***@')} is ${v}, not 4.x (scripts/services.sh up rabbitmq4)`;
  } catch (e) {
    return `RabbitMQ 4 at ${RMQ4_URL.replace(/\/\/[^@]*@/, '//***@')}: ${(e as Error).message} (scripts/services.sh up rabbitmq4)`;
  }
  const redis = await redisProblem(REDIS_URL);
  return redis === null ? null : `Redis at ${REDIS_URL}: ${redis}`;
}

/** Messages in a queue, counted by a passive declare (exact, unlike the management statistics); null if it does not exist. */
export async function queueCount(name: string): Promise<number | null> {
  const c = await amqp.connect(RMQ4_URL, { timeout: 5000 });
  try {
    const ch = await c.createChannel();
    ch.on('error', () => undefined);
    try {
      return (await ch.checkQueue(name)).messageCount;
    } catch {
      return null;
    }
  } finally {
    await c.close().catch(() => undefined);
  }
}

/** Deletes queues (and their DLQs) and the result backend's keys under `prefix`. */
export async function cleanupRabbit(queues: string[], prefix: string): Promise<void> {
  const c = await amqp.connect(RMQ4_URL, { timeout: 5000 });
  try {
    for (const q of queues.flatMap((q) => [q, `${q}.dlq`])) {
      const ch = await c.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteQueue(q).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await c.close().catch(() => undefined);
  }
  const { Redis } = await import('ioredis');
  const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    if (keys.length) await r.del(...keys);
  } finally {
    r.disconnect();
  }
}

/** The management API's view of one queue (exists?), with the AMQP login. */
export async function mgmtQueueExists(name: string): Promise<boolean> {
  const u = new URL(RMQ4_URL);
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  const res = await fetch(`${RMQ4_MGMT}/api/queues/%2F/${encodeURIComponent(name)}`, { headers: { authorization: `Basic ${auth}` } });
  return res.ok;
}

export { until } from '../tests/support/solo-worker';

/** A client on the e2e Redis broker's db (for asserting what the console wrote). */
export async function redisClient(url: string) {
  const { Redis } = await import('ioredis');
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await r.connect();
  return r;
}

/** Deletes every key under `prefix:` (SCAN, never KEYS). */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const r = await redisClient(url);
  try {
    let cur = '0';
    do {
      const [next, keys] = await r.scan(cur, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cur = next;
      if (keys.length) await r.del(...keys);
    } while (cur !== '0');
  } finally {
    r.disconnect();
  }
}

/** True when the `redis-server` binary is here (specs that start a private one); otherwise a loud skip, or a failure when services are required. */
export function redisServerHere(): boolean {
  if (spawnSync('redis-server', ['--version']).status === 0) return true;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1')
    throw new Error('redis-server is required (POTATOQ_CONSOLE_REQUIRE_SERVICES=1) but not installed');
  console.warn('\n!!! redis-server is not installed: SKIPPING the specs that start a private Redis !!!\n');
  return false;
}
