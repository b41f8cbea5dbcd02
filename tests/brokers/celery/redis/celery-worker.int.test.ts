// Round trips with the real Celery 5.7 worker (`celery -A rt_celery_app worker`, solo pool) on
// real Redis: what the console enqueues, revokes, replays and purges, as the worker lives it.
// Databases 12 (broker) and 13 (backend) are this file's own: flushed before and after.
// int-lane: owns redis/12 redis/13 redis/10 (12 and 13 flushed; no worker may answer on 10)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueQueue } from '@/tests/contract';
import { ZDeadListQuery, ZEnqueueRequest } from '@/lib/brokers/schema';
import { connectRedis } from '@/lib/transports/redis/server';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import { celeryConfig, newCeleryWorld, redisAvailable, spawnCelerySeeder, startWorker, stopWorker, until } from './support';
import { taskQuery } from '@/tests/support/task-query';

const up = await redisAvailable();
const w = newCeleryWorld(12, 13);
const Q = uniqueQueue('work');
let worker: { proc: ChildProcess; log: () => string };
let py: PySeeder;
let a: BrokerAdapter;

const ran = (id: string) => path.join(w.out, `${id}.json`);
const started = (id: string) => path.join(w.out, `${id}.started`);
const seen = (id: string) =>
  JSON.parse(readFileSync(ran(id), 'utf8')) as { args: Array<[string, string]>; kwargs: Record<string, [string, string]> };
const enqueue = (task: string, args: string, kwargs = '{}') =>
  a.enqueue(ZEnqueueRequest.parse({ task, queue: Q, fields: { args, kwargs } }));
const statusOf = async (id: string) => (await a.getResult(id))?.status ?? null;

async function flush() {
  for (const url of [w.broker, w.backend]) {
    const c = connectRedis(url);
    await c.flushdb();
    c.disconnect();
  }
}

/** Sends a long task and waits until the (single, solo) worker is busy with it. */
async function busy(seconds: number): Promise<string> {
  const s = await enqueue('ct.sleep', `[${seconds}]`);
  await until('the sleeper to start', async () => existsSync(started(s.id)), 30_000, worker.log);
  return s.id;
}

if (up) {
  beforeAll(async () => {
    await flush();
    py = spawnCelerySeeder(w);
    a = createCeleryRedisAdapter(celeryConfig(w, 'celery-rt', { inspectTimeoutMs: 1000 }));
    worker = startWorker(w, [Q], `ct-${Q}`);
    await until('the worker to answer ping', async () => (await a.listWorkers()).length > 0, 60_000, worker.log);
  }, 90_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker.proc);
    await a?.close();
    await py?.close();
    await flush();
  }, 30_000);

  describe('celery on redis with a real worker', () => {
    it('lists the live worker with its queue, and nobody when no worker answers', async () => {
      const ws = await a.listWorkers();
      expect(ws[0]?.queues).toContain(Q);
      expect(ws[0]?.pid).toMatch(/^\d+$/);
      expect(ws[0]?.registered).toEqual(expect.arrayContaining(['ct.record', 'ct.flaky', 'ct.sleep']));
      const other = createCeleryRedisAdapter({ ...celeryConfig(newCeleryWorld(10, 13)), id: 'nobody' });
      try {
        const t0 = Date.now();
        expect(await other.listWorkers()).toEqual([]);
        expect(Date.now() - t0).toBeLessThan(3000);
      } finally {
        await other.close();
      }
    });

    it('runs a task the console enqueued with the right arguments and types', async () => {
      const t = await enqueue(
        'ct.record',
        '[1, "two", {"__type__": "decimal", "__value__": "1.50"}, 2.5, null]',
        '{"when": {"__type__": "datetime", "__value__": "2026-01-02T03:04:05+00:00"}, "ref": {"__type__": "uuid", "__value__": {"hex": "12345678123456781234567812345678"}}}',
      );
      await until('the task to run', async () => existsSync(ran(t.id)), 30_000, worker.log);
      expect(seen(t.id).args).toEqual([
        ['int', '1'],
        ['str', "'two'"],
        ['Decimal', "Decimal('1.50')"],
        ['float', '2.5'],
        ['NoneType', 'None'],
      ]);
      expect(seen(t.id).kwargs).toEqual({
        when: ['datetime', 'datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)'],
        ref: ['UUID', "UUID('12345678-1234-5678-1234-567812345678')"],
      });
      await until('SUCCESS', async () => (await statusOf(t.id)) === 'SUCCESS');
      expect((await a.getResult(t.id))?.name).toBe('ct.record');
    });

    it('lists decoded what a real producer sent while the worker is busy', async () => {
      const sleeper = await busy(2);
      const id = await py.call<string>('enqueue_typed', { task: 'ct.record', queue: Q });
      const waiting = (await a.listTasks(taskQuery({ state: 'ready', queue: Q }))).items;
      expect(waiting.map((x) => [x.id, x.task])).toEqual([[id, 'ct.record']]);
      expect(waiting[0]!.preview.text).toContain("'two'");
      await until('the typed task to run', async () => existsSync(ran(id)), 30_000, worker.log);
      expect(seen(id).kwargs.price).toEqual(['Decimal', "Decimal('19.99')"]);
      expect(await statusOf(sleeper)).toBe('SUCCESS');
    });

    it('never runs a waiting task the console revoked, and tells the workers', async () => {
      const sleeper = await busy(2);
      const victim = await enqueue('ct.record', '["victim"]');
      const r = await a.revoke([victim.id]);
      expect(r.succeeded.map((o) => o.id)).toEqual([victim.id]);
      expect(await statusOf(victim.id)).toBe('REVOKED');
      const after = await enqueue('ct.record', '["after"]');
      await until('the task after it to run', async () => existsSync(ran(after.id)), 30_000, worker.log);
      expect(existsSync(ran(victim.id))).toBe(false);
      expect(await statusOf(sleeper)).toBe('SUCCESS');
      // The broadcast reached the worker: it remembers the id (as `celery control revoke` does).
      const revoked = await py.call<Record<string, string[]> | null>('inspect', { method: 'revoked', timeout: 2 });
      expect(Object.values(revoked ?? {}).flat()).toContain(victim.id);
    });

    it('replays a failure: the task runs again and succeeds', async () => {
      const flag = `flag-${Date.now()}`;
      const t = await enqueue('ct.flaky', JSON.stringify([flag]));
      await until('FAILURE', async () => (await statusOf(t.id)) === 'FAILURE', 30_000, worker.log);
      const letters = (await a.listDead(ZDeadListQuery.parse({ queue: Q }))).items;
      expect(letters.find((l) => l.id === t.id)?.summary).toBe(`ValueError: flag ${flag} is not set`);
      expect((await a.getDead(t.id))?.reason).toMatch(/^Traceback \(most recent call last\):/);
      writeFileSync(path.join(w.out, flag), '1');
      const r = await a.replayDead([t.id]);
      expect(r.succeeded.map((o) => o.id)).toEqual([t.id]);
      await until('the replay to run', async () => existsSync(ran(t.id)), 30_000, worker.log);
      await until('SUCCESS', async () => (await statusOf(t.id)) === 'SUCCESS');
      expect(await a.getDead(t.id)).toBeNull();
    });

    it('purges the waiting messages and leaves the running task alone', async () => {
      const sleeper = await busy(2);
      const ids = await Promise.all(['a', 'b', 'c'].map((x) => enqueue('ct.record', JSON.stringify([x]))));
      const r = await a.purge(Q);
      expect(r.removed).toBe(3);
      expect((await a.listTasks(taskQuery({ state: 'ready', queue: Q }))).items).toEqual([]);
      await until('the sleeper to finish', async () => (await statusOf(sleeper)) === 'SUCCESS', 30_000, worker.log);
      const marker = await enqueue('ct.record', '["marker"]');
      await until('a task after the purge to run', async () => existsSync(ran(marker.id)), 30_000, worker.log);
      for (const t of ids) expect(existsSync(ran(t.id))).toBe(false);
    });
  });
} else {
  it.skip('celery on redis with a real worker (Redis unavailable)', () => undefined);
}
