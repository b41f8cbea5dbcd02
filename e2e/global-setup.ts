import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  celerySeed,
  extraBrokers,
  pgEnv,
  ROOT,
  pgSeed,
  POTATOQ,
  potatoqUrl,
  PY_DIR,
  PYTHON,
  REDIS_URL,
  redisSeed,
  RMQ4_URL,
  writeExtraStatus,
  type ExtraBrokers,
  type ExtraStatus,
} from './brokers-extra';
import { mgmtQueueExists, pgProblem, queueCount, rabbitProblem, until } from './services';
import { redisProblem } from '../tests/support/redis-ping';
import { E2E_SYSTEMS } from './systems';

// Creates and seeds the service-backed brokers once per run, with the REAL potatoq (runs after
// the web servers started; the console opens brokers per request, so that is fine).

/** `potatoq migrate` into the run's schema, then the overview's rows through potatoq's producer and consumer. */
function setupPostgres(x: ExtraBrokers): void {
  execFileSync(POTATOQ, ['-A', 'rt_pg_tasks', '--no-color', '--no-emoji', 'migrate'], { cwd: PY_DIR, env: pgEnv(x), stdio: 'pipe' });
  const queue = x.pg.queues.overview;
  pgSeed(x, [
    { op: 'enqueue', task: 'rt.record', queue, args: [1] },
    { op: 'enqueue', task: 'rt.record', queue, args: [2] },
    { op: 'enqueue', task: 'rt.record', queue, args: [3], countdown: 3600 },
    { op: 'dead_letter', task: 'rt.fail', queue, args: ['x'], reason: 'Traceback (most recent call last):\nValueError: overview letter\n' },
  ]);
}

/** The Redis broker's overview queue through potatoq's own scripts: 2 ready, 1 scheduled, 1 dead letter. */
function setupRedis(x: ExtraBrokers): void {
  const queue = x.redis.queues.overview;
  redisSeed(x, [
    { op: 'enqueue', task: 'rt.record', queue, args: [1], priority: 5 },
    { op: 'enqueue', task: 'rt.record', queue, args: [2] },
    { op: 'enqueue', task: 'rt.record', queue, args: [3], countdown: 3600 },
    { op: 'dead_letter', task: 'rt.fail', queue, args: ['x'], reason: 'Traceback (most recent call last):\nValueError: overview letter\n' },
  ]);
}

/**
 * A real potatoq worker dead-letters a failing task (`rt.flaky`) and a real Celery producer's
 * `send_task` (tests/py/rt_rabbit_tasks.py, rt_celery_send.py), then stops.
 */
async function setupRabbit(x: ExtraBrokers): Promise<{ flakyId: string; celeryId: string }> {
  const { queue, out, prefix } = x.rmq;
  fs.mkdirSync(out, { recursive: true });
  const env = {
    ...process.env,
    RT_BROKER: potatoqUrl(RMQ4_URL),
    RT_BACKEND: REDIS_URL,
    RT_PREFIX: prefix,
    RT_QUEUE: queue,
    RT_OUT: out,
    POTATOQ_NO_EMOJI: '1',
    NO_COLOR: '1',
    PYTHONUNBUFFERED: '1',
  };
  let log = '';
  const worker = spawn(
    POTATOQ,
    ['-A', 'rt_rabbit_tasks', '--no-color', '--no-emoji', 'worker', '-P', 'solo', '-Q', queue, '--no-scheduler'],
    { cwd: PY_DIR, env },
  );
  worker.stdout.on('data', (d: Buffer) => (log += d.toString()));
  worker.stderr.on('data', (d: Buffer) => (log += d.toString()));
  try {
    await until(
      'the worker to declare its queue',
      async () => (worker.exitCode === null ? mgmtQueueExists(queue) : Promise.reject(new Error(`worker exited:\n${log}`))),
      60_000,
      () => log,
    );
    const flakyId = execFileSync(
      POTATOQ,
      ['-A', 'rt_rabbit_tasks', '--no-color', '--no-emoji', 'call', 'rt.flaky', '-Q', queue, '-a', '[1]'],
      { cwd: PY_DIR, env },
    )
      .toString()
      .trim()
      .split(/\s+/)
      .pop()!;
    const celeryId = execFileSync(PYTHON, [path.join(PY_DIR, 'rt_celery_send.py'), potatoqUrl(RMQ4_URL), queue], { cwd: PY_DIR, env })
      .toString()
      .trim();
    await until(
      'both dead letters',
      async () => ((await queueCount(`${queue}.dlq`)) ?? 0) >= 2,
      60_000,
      () => log,
    );
    return { flakyId, celeryId };
  } finally {
    await new Promise<void>((resolve) => {
      if (worker.exitCode !== null) return resolve();
      const kill = setTimeout(() => worker.kill('SIGKILL'), 15_000);
      worker.on('exit', () => (clearTimeout(kill), resolve()));
      worker.kill('SIGTERM');
    });
  }
}

const TB = (last: string) =>
  `Traceback (most recent call last):\n  File "/srv/shop/tasks.py", line 12, in charge\n    raise CardDeclined(order)\n${last}\n`;

/** A real Celery producer's messages on the run's Celery broker and FAILURE records as a worker
 *  stores them with result_extended (tests/py/celery_seeder.py); no worker consumes the queue. */
function setupCelery(x: ExtraBrokers): NonNullable<ExtraStatus['celerySeed']> {
  const { queue } = x.celery;
  const [flushed, ...ids] = celerySeed<string>(x, [
    { op: 'flush' },
    { op: 'enqueue', task: 'shop.charge', queue, args: [1001, 'EUR'], kwargs: { note: 'first' } },
    { op: 'enqueue', task: 'shop.charge', queue, args: [1002, 'USD'], priority: 6 },
    { op: 'enqueue_typed', task: 'shop.invoice', queue },
    { op: 'enqueue', task: 'shop.remind', queue, args: ['later'], countdown: 3600 },
    {
      op: 'dead_letter',
      task: 'shop.charge',
      queue,
      args: [17, 'EUR'],
      reason: TB('shop.errors.CardDeclined: card for order 17 declined'),
    },
    {
      op: 'dead_letter',
      task: 'shop.charge',
      queue,
      args: [4242, 'EUR'],
      reason: TB('shop.errors.CardDeclined: card for order 4242 declined'),
    },
  ]);
  void flushed;
  return { waiting: [ids[0]!, ids[1]!], typed: ids[2]!, later: ids[3]!, failures: [ids[4]!, ids[5]!] };
}

export default async function globalSetup(): Promise<void> {
  const x = extraBrokers();
  const status: ExtraStatus = {
    pg: await pgProblem(),
    rmq: await rabbitProblem(),
    redis: await redisProblem(x.redis.url),
    celery: await redisProblem(x.celery.broker),
  };
  const started = Date.now();
  // potatoq and Celery at the project's pinned versions (quick when already there).
  if (status.pg === null || status.rmq === null || status.redis === null || status.celery === null)
    execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { cwd: ROOT, stdio: 'inherit' });
  if (status.celery === null) status.celerySeed = setupCelery(x);
  await Promise.all([
    status.pg === null ? Promise.resolve().then(() => setupPostgres(x)) : null,
    status.rmq === null ? setupRabbit(x).then((seed) => (status.rmqSeed = seed)) : null,
    status.redis === null ? Promise.resolve().then(() => setupRedis(x)) : null,
    ...E2E_SYSTEMS.map((sys) => sys.setup?.(process.env.POTATOQ_E2E_DIR!)),
  ]);
  writeExtraStatus(status);
  console.log(
    `e2e global setup: PostgreSQL ${status.pg ?? 'ready'}, RabbitMQ ${status.rmq ?? 'ready'}, Redis ${status.redis ?? 'ready'} (${Date.now() - started} ms)`,
  );
}
