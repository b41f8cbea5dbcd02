// The brokers `npm run bench:queues` (bench/queues.ts) seeds with N queues, each system in its
// own layout and in a namespace of the run's own, removed afterwards: potatoq on PostgreSQL (a
// database of its own), on Redis and Celery on Redis (db 9, a key prefix of their own), potatoq
// on RabbitMQ 4 (a vhost of its own) and QueueFlow (a server and database of its own). Each
// seeder returns the console's broker entry and its cleanup.
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { countedDatabase } from '@/tests/support/counted-database';
import { seedLive } from '@/tests/support/pg-live-seed';
import { dropKeysStartingWith, dropPrefix } from '@/tests/support/redis';
import { seedRedisQueues } from '@/tests/support/redis-queues-seed';
import { RMQ4_MGMT, RMQ4_URL } from '@/tests/support/rabbitmq';
import { call, startQueueflow } from '@/tests/queueflow/support';
import { potatoqProperties } from '@/lib/brokers/potatoq/rabbitmq/dlq';
import { parsePotatoqEnqueue } from '@/lib/brokers/potatoq/enqueue-fields';
import { buildFromFields } from '@/lib/brokers/potatoq/records';
import { DELIVERY_EXCHANGE, DLX, dlqOf } from '@/lib/brokers/potatoq/rabbitmq/topology';
import { potatoqCli, potatoqEnv } from './potatoq-side';
import { createBenchVhost } from './rabbit-vhost';
import { produce } from './celery-procs';

const PG = process.env.POTATOQ_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const REDIS = process.env.POTATOQ_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const RMQ = process.env.POTATOQ_BENCH_RABBITMQ4_URL ?? RMQ4_URL;
const MGMT = process.env.POTATOQ_BENCH_RABBITMQ4_MGMT ?? RMQ4_MGMT;

export type Entry = Record<string, unknown>;
export interface Seeded {
  entry: Entry;
  /** What the seed left out of the shared shape (4 waiting and 1 dead letter per queue). */
  note?: string;
  cleanup(): Promise<void>;
}

/** Live-shaped work over `n` queues: 4 waiting, 1 dead per queue; a running task per 5 queues. */
export const sizes = (n: number) => ({ queues: n, waiting: 4 * n, running: Math.ceil(n / 5), retried: Math.ceil(n / 10), dead: n });
const names = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${String(i).padStart(5, '0')}`);

export async function postgresBroker(url: string, prefix: string, n: number): Promise<Entry> {
  const options = { schema: 'public', table_prefix: prefix };
  potatoqCli(potatoqEnv(url, options), ['migrate']);
  const T = (x: string) => `"public"."${prefix}${x}"`;
  await seedLive(url, { jobs: T('jobs'), dead: T('dead'), results: T('results'), workers: T('workers') }, sizes(n), 'fresh');
  return { url, ...options, poolSize: 1 };
}

async function postgres(n: number): Promise<Seeded> {
  const db = await countedDatabase(PG, 'pqbench_queues');
  try {
    return { entry: await postgresBroker(db.url, 'potatoq_', n), cleanup: () => db.drop() };
  } catch (e) {
    await db.drop();
    throw e;
  }
}

async function redis(n: number): Promise<Seeded> {
  const c = new Redis(REDIS);
  const prefix = `pqbq${n}`;
  const cleanup = async () => {
    await dropPrefix(c, prefix);
    c.disconnect();
  };
  await seedRedisQueues(c, prefix, sizes(n)).catch(async (e: unknown) => {
    await cleanup();
    throw e;
  });
  return { entry: { url: REDIS, prefix }, note: 'no running tasks', cleanup };
}

/** potatoq's `declare_queue` (brokers/rabbitmq.py 26.1a8) for each queue, four channels at
 *  once; then 4 messages as `potatoq call` sends them per queue, and 1 letter in each DLQ. */
async function seedRabbit(url: string, queues: string[]): Promise<void> {
  const c = await amqp.connect(url);
  c.on('error', () => undefined); // a refused declare rejects its call; not a crash of the run
  try {
    const setup = await c.createChannel();
    await setup.assertExchange(DLX, 'direct', { durable: true });
    await setup.assertExchange(DELIVERY_EXCHANGE, 'topic', { durable: true });
    const left = [...queues];
    const lane = async () => {
      const ch = await c.createChannel();
      for (let q = left.pop(); q !== undefined; q = left.pop()) {
        const args = {
          'x-queue-type': 'quorum',
          'x-delivery-limit': 5, // potatoq's task_max_deliveries
          'x-dead-letter-exchange': DLX,
          'x-dead-letter-strategy': 'at-least-once',
          'x-overflow': 'reject-publish',
          'x-dead-letter-routing-key': q,
        };
        await ch.assertQueue(q, { durable: true, arguments: args });
        await ch.assertQueue(dlqOf(q), { durable: true, arguments: { 'x-queue-type': 'quorum', 'x-delivery-limit': -1 } });
        await ch.bindQueue(dlqOf(q), DLX, q);
        await ch.bindQueue(q, DELIVERY_EXCHANGE, `#.${q}`);
      }
      await ch.close();
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
    const ch = await c.createConfirmChannel();
    const now = Date.now();
    queues.forEach((queue, i) => {
      for (let k = 0; k < 5; k++) {
        const m = buildFromFields(parsePotatoqEnqueue({ task: `bench.task${k}`, queue, fields: { args: [i, k] } }), now / 1000);
        const props = potatoqProperties(m.id, m.priority);
        // The fifth is a letter as potatoq's consumer dead-letters it.
        if (k === 4)
          props.headers = { 'potatoq-reason': `Traceback (most recent call last):\nValueError: ${i}\n`, 'potatoq-died': now - i };
        ch.publish('', k === 4 ? dlqOf(queue) : queue, Buffer.from(m.json, 'utf8'), props);
      }
    });
    await ch.waitForConfirms();
  } finally {
    await c.close();
  }
}

async function rabbitmq(n: number): Promise<Seeded> {
  // 10,000 quorum queues made the shared test broker refuse quorum declares for minutes and
  // time out deleting the vhost: past 1,000 queues only a broker named for the run is used.
  if (n > 1000 && !process.env.POTATOQ_BENCH_RABBITMQ4_URL)
    throw new Error('more than 1,000 queues on RabbitMQ need a node of their own: set POTATOQ_BENCH_RABBITMQ4_URL and _MGMT');
  const own = await createBenchVhost(RMQ, MGMT, `prq-queues-${n}-${process.pid}`);
  try {
    await seedRabbit(own.url, names(n, 'q'));
  } catch (e) {
    await own.remove();
    throw e;
  }
  return {
    entry: { url: own.url, managementUrl: MGMT },
    note: 'no running tasks, no result backend',
    // Said twice: a vhost DELETE once left the vhost behind on a busy broker (the second is a 404 when gone).
    cleanup: async () => {
      await own.remove();
      await own.remove();
    },
  };
}

/** The real Celery producer (`app.send_task`, bench/py/celery_bench_seed.py): 4 tasks per queue,
 *  kombu declaring each queue's binding as it goes; no failures (the result backend is empty). */
async function celery(n: number): Promise<Seeded> {
  const prefix = `cqbq${n}:`;
  const c = new Redis(REDIS);
  const cleanup = async () => {
    await dropKeysStartingWith(c, prefix);
    c.disconnect();
  };
  try {
    const env = { ...process.env, CB_BROKER: REDIS, CB_BACKEND: REDIS, CB_KEYPREFIX: prefix };
    await produce(env, [{ task: 'bench.slow', queues: names(n, 'cq'), n: 4 * n, first: 0 }], 2);
  } catch (e) {
    await cleanup();
    throw e;
  }
  const entry = { kind: 'celery', url: REDIS, globalKeyprefix: prefix, resultBackend: REDIS, resultKeyprefix: prefix };
  return { entry, note: 'no running tasks, no failures', cleanup };
}

/** A QueueFlow server of its own; 4 jobs per queue through its batch endpoint (1,000 a call). */
async function queueflow(n: number): Promise<Seeded> {
  const s = startQueueflow();
  if (!s) throw new Error('no QueueFlow server here (see the line above)');
  try {
    const queues = names(n, 'qf');
    for (let from = 0; from < 4 * n; from += 1000) {
      const jobs = Array.from({ length: Math.min(1000, 4 * n - from) }, (_, k) => ({
        task_name: `bench.task${(from + k) % 7}`,
        payload: { n: from + k, note: 'x'.repeat(180) },
        config: { queue: queues[(from + k) % n], priority: (from + k) % 4 },
      }));
      const r = await call(s, 'POST', '/api/v1/jobs/batch', { body: { jobs } });
      if (r.status >= 300) throw new Error(`QueueFlow batch: HTTP ${r.status}`);
    }
  } catch (e) {
    s.stop();
    throw e;
  }
  return {
    entry: { kind: 'queueflow', url: s.url, token: s.token },
    note: 'no running jobs, no dead letters',
    cleanup: async () => s.stop(),
  };
}

export const SEEDERS: Record<string, (n: number) => Promise<Seeded>> = { postgres, redis, rabbitmq, celery, queueflow };
