// The failure tally and the newest-first failure list kept between polls
// (lib/brokers/celery/redis/result-index.ts) stay right while a real Celery 5.7 worker fails and
// succeeds tasks, a failure is replayed, a record is deleted behind the console's back and
// FAILURE records expire (result_failure_expires) — and polls read none of the records again;
// the waiting/future split likewise reads an unchanged queue's right end alone.
// Real Redis 7 (db 7, this run's prefixes), a real `celery worker` (tests/py/rt_celery_app.py).
// int-lane: uses redis/7 (every key under per-run prefixes)
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropKeysAt } from '@/tests/support/redis';
import { ZDeadGroupsQuery, ZDeadListQuery, ZEnqueueRequest, ZResultListQuery } from '@/lib/brokers/schema';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import type { CeleryRedisCtx } from '@/lib/brokers/celery/redis/context';
import { peekIndex } from '@/lib/brokers/celery/redis/indexed';
import { celeryConfig, newCeleryWorld, redisAvailable, redisDb, startWorker, stopWorker, until } from './support';

const DB = 7;
const FAILURE_EXPIRES_S = 25;
const up = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const brokerPrefix = `ctib-${tag}:`;
const resultPrefix = `ctir-${tag}:`;
const Q = `idx-${tag}`;
const w = newCeleryWorld(DB, DB);
w.env = { ...w.env, CT_BROKER_PREFIX: brokerPrefix, CT_RESULT_PREFIX: resultPrefix, CT_FAILURE_EXPIRES: String(FAILURE_EXPIRES_S) };
let ctx: CeleryRedisCtx;
const a = createCeleryRedisAdapter(
  celeryConfig(w, 'celery-index', { globalKeyprefix: brokerPrefix, resultKeyprefix: resultPrefix, queues: [Q, `split-${tag}`] }),
  (c) => (ctx = c),
);
let worker: { proc: ChildProcess; log: () => string };

const enqueue = async (task: string, args: unknown[]) =>
  (await a.enqueue(ZEnqueueRequest.parse({ task, queue: Q, fields: { args: JSON.stringify(args), kwargs: '{}' } }))).id;
const statusOf = async (id: string) => (await a.getResult(id))?.status ?? null;
const deadOfQ = async () => (await a.overview()).queues.find((q) => q.name === Q)?.dead ?? null;
const listed = async (limit = 100) => (await a.listDead(ZDeadListQuery.parse({ queue: Q, limit }))).items.map((l) => l.id);
const stats = () => ({ ...peekIndex(ctx)!.stats });

if (up) {
  beforeAll(async () => {
    expect(await deadOfQ()).toBe(0); // the index's first (full) read: nothing yet
    worker = startWorker(w, [Q], `ct-${Q}`);
  }, 30_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker.proc);
    await a.close();
    await dropKeysAt(redisDb(DB), brokerPrefix);
    await dropKeysAt(redisDb(DB), resultPrefix);
  }, 30_000);

  describe('celery on redis: the failure index kept between polls', () => {
    const ids: string[] = [];
    const flag = `flag-${tag}`;

    it('counts and lists new failures newest first as the worker stores them, reading no record again', async () => {
      const before = stats();
      for (let i = 0; i < 3; i++) {
        const id = await enqueue('ct.flaky', [flag]);
        await until(`failure ${i}`, async () => (await statusOf(id)) === 'FAILURE', 60_000, worker.log);
        ids.unshift(id); // newest first
        expect(await deadOfQ()).toBe(i + 1);
      }
      const ok = await enqueue('ct.record', ['fine']);
      await until('success', async () => (await statusOf(ok)) === 'SUCCESS', 60_000, worker.log);
      expect(await deadOfQ()).toBe(3); // a success is no failure
      expect(await listed()).toEqual(ids);
      const first = await a.listDead(ZDeadListQuery.parse({ queue: Q, limit: 2 }));
      expect(first.items.map((l) => l.id)).toEqual(ids.slice(0, 2));
      const second = await a.listDead(ZDeadListQuery.parse({ queue: Q, limit: 2, cursor: first.nextCursor! }));
      expect(second).toEqual({ items: [expect.objectContaining({ id: ids[2] })], nextCursor: null });
      const results = (await a.listResults!(ZResultListQuery.parse({ status: 'SUCCESS' }))).items.map((r) => r.id);
      expect(results).toContain(ok);
      // Every record arrived on the subscription: no full reconcile, no record read by a poll (a
      // keys-only reconcile may run: other suites write keys into this shared db).
      expect(stats()).toMatchObject({ full: before.full, recordsRead: before.recordsRead });
    }, 120_000);

    it('drops a failure replayed into a success', async () => {
      writeFileSync(path.join(w.out, flag), '1');
      const replayed = ids[1]!;
      expect((await a.replayDead([replayed])).succeeded.map((o) => o.id)).toEqual([replayed]);
      await until('the replay to succeed', async () => (await statusOf(replayed)) === 'SUCCESS', 60_000, worker.log);
      expect(await deadOfQ()).toBe(2);
      expect(await listed()).toEqual([ids[0], ids[2]]);
    }, 90_000);

    it('notices a record deleted behind its back (AsyncResult.forget) from the key count', async () => {
      const before = stats();
      expect(await ctx.backend!.del(`${resultPrefix}celery-task-meta-${ids[0]}`)).toBe(1);
      expect(await deadOfQ()).toBe(1);
      expect(await listed()).toEqual([ids[2]]);
      const after = stats();
      // A keys-only reconcile; the records it already knew were not read again.
      expect(after.keysOnly).toBeGreaterThan(before.keysOnly);
      expect(after.recordsRead).toBe(before.recordsRead);
    });

    it('forgets a failure once Redis expires it (result_failure_expires)', async () => {
      const key = `${resultPrefix}celery-task-meta-${ids[2]}`;
      await until('the failure to expire', async () => (await ctx.backend!.exists(key)) === 0, (FAILURE_EXPIRES_S + 30) * 1000);
      expect(await deadOfQ()).toBe(0);
      expect(await listed()).toEqual([]);
      expect((await a.overview()).totals.dead).toBe(0);
    }, 90_000);

    it('keeps 2,048 characters of a megabyte-long exception message, and a text search still finds its end', async () => {
      const end = `end-${tag}`;
      const id = await enqueue('ct.fail_long', [1_000_000, end]);
      await until('the long failure', async () => (await statusOf(id)) === 'FAILURE', 60_000, worker.log);
      const g = (await a.deadGroups(ZDeadGroupsQuery.parse({ queue: Q }))).groups.find((x) => x.example.id === id);
      expect(g?.example.summary).toHaveLength(2048);
      expect(g!.example.summary).toMatch(/^ValueError: x+…$/);
      // The search reads the record itself: the message's end, past what the index keeps.
      expect((await a.listDead(ZDeadListQuery.parse({ queue: Q, q: end }))).items.map((l) => l.id)).toEqual([id]);
    }, 90_000);
  });

  describe('celery on redis: the waiting/future split kept between polls', () => {
    const Q2 = `split-${tag}`; // no worker consumes it
    const send = async (n: number, fields: Record<string, string> = {}) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++)
        ids.push((await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.record', queue: Q2, fields: { args: '[1]', ...fields } }))).id);
      return ids;
    };
    const countsOf = async () => (await a.overview()).queues.find((q) => q.name === Q2)?.counts;
    const key = () => ctx.keys.bucket(Q2, 0);

    it('stays right as a worker would take from the right end and producers push at the left, walking only the new part', async () => {
      await send(4);
      const later = await send(3, { countdown: '3600' }); // future ETAs
      await send(3);
      expect(await countsOf()).toMatchObject({ ready: 7, scheduled: 3 });
      const splits = ctx.splits!;
      const walked = splits.stats.walked;
      // Taken as a worker takes them (BRPOP of the right end), then more sent.
      expect(await ctx.client.rpop(key(), 5)).toHaveLength(5); // 4 ready, 1 future
      await send(2, { countdown: '3600' });
      expect(await countsOf()).toMatchObject({ ready: 3, scheduled: 4 });
      expect(splits.stats.walked).toBe(walked); // the kept walk was continued, not redone
      expect(splits.stats.reused).toBeGreaterThan(0);
      // Revoked from the middle by the console: the kept walk is dropped and counts stay right.
      expect((await a.revoke([later[2]!])).succeeded).toHaveLength(1);
      expect(await countsOf()).toMatchObject({ ready: 3, scheduled: 3 });
      // Taken, then restored to the right end (kombu's restore of an unacked message): walked again.
      const taken = (await ctx.client.rpop(key()))!;
      expect(await countsOf()).toMatchObject({ ready: 3, scheduled: 2 });
      const before = splits.stats.walked;
      await ctx.client.rpush(key(), taken);
      expect(await countsOf()).toMatchObject({ ready: 3, scheduled: 3 });
      expect(splits.stats.walked).toBeGreaterThan(before);
    });

    it("reads an unchanged queue's right end alone, and of one that grew only the new part", async () => {
      // The read script's calls on this queue's lists, as Redis receives them.
      const reads: string[] = [];
      const client = ctx.client;
      const send0 = client.sendCommand;
      client.sendCommand = function (this: typeof client, ...args: Parameters<typeof send0>) {
        const [c] = args;
        if (/^evalsha$/i.test(c.name) && String(c.args[2]).startsWith(key())) reads.push(String(c.args[2]));
        return send0.apply(this, args);
      } as typeof send0;
      try {
        await send(2);
        const before = (await countsOf())!;
        reads.length = 0;
        expect(await countsOf()).toEqual(before);
        expect(reads).toEqual([key()]); // the right end; not a walk of the bucket and the next three
        await send(2);
        reads.length = 0;
        expect(await countsOf()).toMatchObject({ ready: before.ready! + 2, scheduled: before.scheduled });
        expect(reads).toEqual([key(), key()]); // the right end, then the two new messages in one read
      } finally {
        client.sendCommand = send0;
      }
    });
  });
} else {
  it.skip('celery on redis: the failure index (Redis unavailable)', () => undefined);
}
