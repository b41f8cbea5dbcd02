// Stuck-work diagnosis against a real Celery 5.7 worker on real RabbitMQ 4.3 (results in Redis
// db 3 under a per-run prefix): a queue nobody consumes, and a worker that stops answering
// (SIGSTOP) while it holds a task. Queues are `stk-*`, deleted afterwards.
// int-lane: owns rabbitmq; uses redis/3 (Celery workers on the shared vhost; results under a per-run prefix)
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEnqueueRequest, type Diagnosis, type StuckCheck } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { newCeleryWorld, redisAvailable, spawnCelerySeeder, startWorker, stopWorker, until } from '@/tests/brokers/celery/redis/support';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';

const url = process.env.POTATOQ_TEST_RABBITMQ4_URL;
const mgmt = process.env.POTATOQ_TEST_RABBITMQ4_MGMT;
const redisUp = await redisAvailable();
const tag = randomBytes(3).toString('hex');
const Q = { idle: `stk-ridle-${tag}`, hung: `stk-rhung-${tag}` };

if (!url || !mgmt || !redisUp) {
  const line =
    '!!! RabbitMQ 4.3 is not configured (POTATOQ_TEST_RABBITMQ4_URL/_MGMT) or Redis is down: SKIPPING the Celery stuck-work suite !!!';
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  it.skip('celery on rabbitmq: stuck work', () => undefined);
} else {
  const base = newCeleryWorld(0, 3);
  const w = { ...base, broker: url, env: { ...base.env, CT_BROKER: url, CT_RESULT_PREFIX: `stk${tag}` } };
  let a: BrokerAdapter;
  let py: PySeeder;
  const procs: Array<ReturnType<typeof startWorker>> = [];
  const diagnose = (): Promise<Diagnosis> => a.diagnose!({ overdueSeconds: 120, revoke: { on: true } });
  const flagsOf = (d: Diagnosis, check: StuckCheck, queue: string) => d.flags.filter((f) => f.check === check && f.queue === queue);
  const file = (id: string, ext: string) => existsSync(path.join(w.out, `${id}.${ext}`));
  const enqueue = (task: string, queue: string, args: string) =>
    a.enqueue(ZEnqueueRequest.parse({ task, queue, fields: { args, kwargs: '{}' } }));
  const start = (queues: string[], name: string) => {
    const wk = startWorker(w, queues, `${name}-${tag}`, ['-P', 'threads', '-c', '1']);
    procs.push(wk);
    return wk;
  };

  beforeAll(() => {
    py = spawnCelerySeeder(w);
    a = createCeleryRabbitAdapter({
      id: 'celery-stk',
      name: 'celery-stk',
      url,
      readOnly: false,
      options: { resultBackend: w.backend, resultKeyprefix: w.env.CT_RESULT_PREFIX, managementUrl: mgmt, inspectTimeoutMs: 1000 },
    });
  });
  afterAll(async () => {
    for (const p of procs) {
      p.proc.kill('SIGCONT');
      await stopWorker(p.proc);
    }
    await py.call('delete_queues', { names: Object.values(Q) }).catch(() => undefined);
    await py.close();
    await a?.close();
  }, 60_000);

  describe('celery on rabbitmq 4.3: stuck work with a real worker', () => {
    it('flags a queue with waiting messages and no consumer, and clears it once a worker consumes it', async () => {
      const t = await enqueue('ct.record', Q.idle, '[1]');
      const [flag] = flagsOf(await diagnose(), 'no-consumer', Q.idle);
      expect(flag).toMatchObject({ count: 1, link: { page: 'queue', queue: Q.idle, state: 'ready' } });
      expect(flag!.cause).toContain('RabbitMQ counts no consumer');
      const wk = start([Q.idle], 'stk-r1');
      await until('the task to run', async () => file(t.id, 'json'), 60_000, wk.log);
      expect(flagsOf(await diagnose(), 'no-consumer', Q.idle)).toEqual([]);
    }, 90_000);

    it('flags the unacknowledged task of a worker that stops answering, and clears it once it answers again', async () => {
      const wk = start([Q.hung], 'stk-r2');
      await until('the worker to answer', async () => (await a.listWorkers()).some((x) => x.queues.includes(Q.hung)), 60_000, wk.log);
      const t = await enqueue('ct.hold', Q.hung, '[40]');
      await until('the task to start', async () => file(t.id, 'started'), 30_000, wk.log);
      // The management API samples its counts every 5 s: wait until it shows the message held.
      await until(
        'RabbitMQ to count it unacknowledged',
        async () => (await a.overview()).queues.find((x) => x.name === Q.hung)?.counts.running === 1,
        20_000,
      );
      expect(flagsOf(await diagnose(), 'worker-lost', Q.hung)).toEqual([]);
      wk.proc.kill('SIGSTOP');
      const [flag] = flagsOf(await diagnose(), 'worker-lost', Q.hung);
      expect(flag).toMatchObject({ count: 1, ids: [], link: { page: 'queue', queue: Q.hung, state: 'running' } });
      expect(flag!.cause).toMatch(/unacknowledged in RabbitMQ, but no live worker reports it/);
      expect(flag!.cannot).toMatch(/never changes running/i);
      wk.proc.kill('SIGCONT');
      await until('the worker to answer again', async () => !flagsOf(await diagnose(), 'worker-lost', Q.hung).length, 20_000, wk.log);
    }, 120_000);
  });
}
