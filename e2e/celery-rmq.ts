import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import amqp from 'amqplib';
import { extraBrokers, runCelerySeeder, type CeleryRmqBroker } from './brokers-extra';
import { redisClient } from './services';
import { redisProblem } from '../tests/support/redis-ping';
import { spawnCeleryWorker } from '../tests/support/celery-worker';

// The e2e run's Celery apps on RabbitMQ 4.3 and 3.10 (e2e/celery-rabbitmq.spec.ts): the REAL
// Celery 5.7 producer (tests/py/celery_seeder.py) and worker (tests/py/rt_celery_app.py) on the
// broker's own queues, results in Redis db 7 under the broker's key prefix; direct AMQP and
// Redis reads to check what the console did (never through the console).

export const celeryRmqBroker = (id: string): CeleryRmqBroker => {
  const b = extraBrokers().celeryRmq.find((x) => x.id === id);
  if (!b) throw new Error(`no Celery RabbitMQ broker ${id} in this run's extra.json`);
  return b;
};

const redact = (url: string) => url.replace(/\/\/[^@]*@/, '//***@');

/** Why the broker (or its Redis result backend) can't be used, or null when both answer. */
export async function celeryRmqProblem(b: CeleryRmqBroker): Promise<string | null> {
  try {
    const c = await amqp.connect(b.url, { timeout: 3000 });
    await c.close();
  } catch (e) {
    return `${b.label} at ${redact(b.url)}: ${(e as Error).message}`;
  }
  const why = await redisProblem(b.backend);
  return why === null ? null : `Redis at ${b.backend}: ${why}`;
}

/** The folder the broker's worker writes `<task id>.json` into (what it was called with). */
export const outDir = (b: CeleryRmqBroker) => {
  const dir = path.join(process.env.POTATOQ_E2E_DIR ?? '/tmp', `celery-out-${b.id}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

const celeryEnv = (b: CeleryRmqBroker) => ({
  ...process.env,
  CT_BROKER: b.url,
  CT_BACKEND: b.backend,
  CT_RESULT_PREFIX: b.prefix,
  CT_OUT: outDir(b),
  PYTHONUNBUFFERED: '1',
});

/** Runs requests through the real Celery seeder on the broker (one process for the batch). */
export function rmqCelery<T = unknown>(b: CeleryRmqBroker, requests: Record<string, unknown>[]): T[] {
  return runCelerySeeder<T>(celeryEnv(b), requests);
}

/** A real `celery worker` (solo pool) on the broker's work queue. */
export const startCeleryWorker = (b: CeleryRmqBroker) => spawnCeleryWorker(celeryEnv(b), [b.queues.work], b.prefix.slice(0, -1));

export async function stopCeleryWorker(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const kill = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    proc.on('exit', () => (clearTimeout(kill), resolve()));
    proc.kill('SIGTERM');
  });
}

/** Messages in a queue by a passive declare (exact); null when the queue does not exist. */
export async function passiveCount(b: CeleryRmqBroker, queue: string): Promise<number | null> {
  const c = await amqp.connect(b.url, { timeout: 5000 });
  try {
    const ch = await c.createChannel();
    ch.on('error', () => undefined);
    return await ch.checkQueue(queue).then(
      (q) => q.messageCount,
      () => null,
    );
  } finally {
    await c.close().catch(() => undefined);
  }
}

/** The Celery result record of a task in the broker's result backend (null: none). */
export async function resultOf(b: CeleryRmqBroker, id: string): Promise<{ status: string; result: unknown } | null> {
  const r = await redisClient(b.backend);
  try {
    const raw = await r.get(`${b.prefix}celery-task-meta-${id}`);
    return raw === null ? null : (JSON.parse(raw) as { status: string; result: unknown });
  } finally {
    r.disconnect();
  }
}

/** What the worker recorded for a task it ran: its args as Python saw them (type name, repr). */
export function ranWith(b: CeleryRmqBroker, id: string): { args: [string, string][]; kwargs: Record<string, [string, string]> } | null {
  const f = path.join(outDir(b), `${id}.json`);
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as ReturnType<typeof ranWith>) : null;
}

/** Deletes the broker's queues (and the direct exchanges Celery declared for them) and its result keys. */
export async function cleanupCeleryRmq(b: CeleryRmqBroker): Promise<void> {
  const c = await amqp.connect(b.url, { timeout: 5000 });
  try {
    for (const name of Object.values(b.queues)) {
      const ch = await c.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteQueue(name).catch(() => undefined);
      await ch.deleteExchange(name).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await c.close().catch(() => undefined);
  }
  const r = await redisClient(b.backend);
  try {
    let cur = '0';
    do {
      const [next, keys] = await r.scan(cur, 'MATCH', `${b.prefix}*`, 'COUNT', 1000);
      cur = next;
      if (keys.length) await r.del(...keys);
    } while (cur !== '0');
  } finally {
    r.disconnect();
  }
}
