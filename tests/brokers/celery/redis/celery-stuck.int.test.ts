// Stuck-work diagnosis against real Celery 5.7 workers (tests/py/rt_celery_app.py) on real
// Redis: a worker killed with SIGKILL while it holds a task, a queue nobody consumes, ETAs
// that stay overdue. Redis db 3 is this file's own (broker and results): flushed before and after.
// int-lane: owns redis/3 (flushed before and after)
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEnqueueRequest, type Diagnosis, type StuckCheck } from '@/lib/brokers/schema';
import { connectRedis } from '@/lib/transports/redis/server';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import { celeryConfig, newCeleryWorld, redisAvailable, startWorker, stopWorker, until } from './support';

const up = await redisAvailable();
const VT = 8;
const w = newCeleryWorld(3, 3);
w.env.CT_VISIBILITY = String(VT);
const tag = Math.random().toString(36).slice(2, 8);
const Q = { lost: `stk-lost-${tag}`, idle: `stk-idle-${tag}`, eta: `stk-eta-${tag}`, busy: `stk-busy-${tag}` };
const THREADS = ['-P', 'threads', '-c', '1'];
let a: BrokerAdapter;
const workers: ChildProcess[] = [];
const redis = connectRedis(w.broker);

const start = (queues: string[], name: string) => {
  const wk = startWorker(w, queues, `${name}-${tag}`, THREADS);
  workers.push(wk.proc);
  return wk;
};
const enqueue = (task: string, queue: string, args: string, fields: Record<string, string> = {}) =>
  a.enqueue(ZEnqueueRequest.parse({ task, queue, fields: { args, kwargs: '{}', ...fields } }));
const diagnose = (overdueSeconds = 120): Promise<Diagnosis> => a.diagnose!({ overdueSeconds, revoke: { on: true } });
const flagsOf = (d: Diagnosis, check: StuckCheck, queue: string) => d.flags.filter((f) => f.check === check && f.queue === queue);
const started = (id: string) => existsSync(path.join(w.out, `${id}.started`));
const ran = (id: string) => existsSync(path.join(w.out, `${id}.json`));
const inUnacked = async (id: string) => Object.values(await redis.hgetall('unacked')).some((v) => v.includes(id));
const workerUp = async (host: string) => (await a.listWorkers()).some((x) => x.id.startsWith(host));

if (up) {
  beforeAll(async () => {
    await redis.flushdb();
    a = createCeleryRedisAdapter(celeryConfig(w, 'celery-stuck', { inspectTimeoutMs: 1000, visibilityTimeout: VT }));
  });
  afterAll(async () => {
    for (const p of workers) await stopWorker(p);
    await a?.close();
    await redis.flushdb();
    redis.disconnect();
  }, 60_000);

  describe('celery on redis: stuck work with real workers', () => {
    it('flags a task whose worker was killed with SIGKILL as worker-lost by id, until its reservation comes back and runs', async () => {
      const w1 = start([Q.lost], 'stk-w1');
      await until('worker 1', () => workerUp(`stk-w1-${tag}`), 60_000, w1.log);
      const t = await enqueue('ct.hold', Q.lost, '[120]');
      await until('the task to start', async () => started(t.id), 30_000, w1.log);
      // Held by a live worker: reported by it, not lost.
      expect(flagsOf(await diagnose(), 'worker-lost', Q.lost)).toEqual([]);
      w1.proc.kill('SIGKILL');
      await until('worker 1 to die', async () => w1.proc.exitCode !== null || w1.proc.signalCode !== null, 10_000);
      expect(await inUnacked(t.id)).toBe(true);
      const d = await diagnose();
      const [flag] = flagsOf(d, 'worker-lost', Q.lost);
      expect(flag).toMatchObject({ ids: [t.id], count: 1, link: { page: 'task', id: t.id } });
      expect(flag!.cause).toContain(`visibility timeout (${VT} s)`);
      expect(flag!.can).toMatch(/No worker is alive/);
      expect(flag!.cannot).toMatch(/never changes running/i);
      // A new worker's restore sweep gives it back after the visibility timeout; it runs again.
      const w2 = start([Q.lost], 'stk-w2');
      await until('the lost task to come back and run', async () => ran(t.id), 90_000, w2.log);
      await until('its reservation to be acknowledged', async () => !(await inUnacked(t.id)), 20_000);
      expect(flagsOf(await diagnose(), 'worker-lost', Q.lost)).toEqual([]);
    }, 180_000);

    it('flags a queue with waiting messages and no worker as no-consumer, and clears it once a worker consumes it', async () => {
      const t = await enqueue('ct.record', Q.idle, '[1]');
      const [flag] = flagsOf(await diagnose(), 'no-consumer', Q.idle);
      expect(flag).toMatchObject({ count: 1, link: { page: 'queue', queue: Q.idle, state: 'ready' } });
      expect(flag!.can).toContain(`-Q ${Q.idle}`);
      const wk = start([Q.idle], 'stk-w3');
      await until('the waiting task to run', async () => ran(t.id), 60_000, wk.log);
      await until('the worker to answer', () => workerUp(`stk-w3-${tag}`), 30_000, wk.log);
      expect(flagsOf(await diagnose(), 'no-consumer', Q.idle)).toEqual([]);
    }, 120_000);

    it('flags an ETA message overdue in its list, and not before its threshold', async () => {
      const t = await enqueue('ct.record', Q.eta, '[2]', { countdown: '1' });
      expect(flagsOf(await diagnose(1), 'overdue', Q.eta)).toEqual([]);
      await new Promise((r) => setTimeout(r, 2600));
      const [flag] = flagsOf(await diagnose(1), 'overdue', Q.eta);
      expect(flag).toMatchObject({ ids: [t.id], count: 1, link: { page: 'task', id: t.id } });
      expect(flag!.cause).toMatch(/no live worker takes them/);
      expect(flagsOf(await diagnose(3600), 'overdue', Q.eta)).toEqual([]);
    }, 30_000);

    it('flags an ETA message a busy worker reserved and has not started, by id', async () => {
      const wk = start([Q.busy], 'stk-w4');
      await until('worker 4', () => workerUp(`stk-w4-${tag}`), 60_000, wk.log);
      // Acknowledged as it starts (not acks_late): the worker's prefetch slot stays free.
      const busy = await enqueue('ct.sleep', Q.busy, '[6]');
      await until('the pool to be busy', async () => started(busy.id), 30_000, wk.log);
      const t = await enqueue('ct.record', Q.busy, '[3]', { countdown: '1' });
      await until('the ETA message to be reserved', async () => inUnacked(t.id), 10_000, wk.log);
      await new Promise((r) => setTimeout(r, 2600));
      const [flag] = flagsOf(await diagnose(1), 'overdue', Q.busy);
      expect(flag).toMatchObject({ ids: [t.id], count: 1, link: { page: 'task', id: t.id } });
      expect(flag!.cause).toContain(`stk-w4-${tag}`);
      expect(flagsOf(await diagnose(1), 'worker-lost', Q.busy)).toEqual([]);
      await until('the ETA task to run once the pool is free', async () => ran(t.id), 30_000, wk.log);
      expect(flagsOf(await diagnose(1), 'overdue', Q.busy)).toEqual([]);
    }, 90_000);
  });
}
