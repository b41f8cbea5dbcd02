// What one read of a Celery app's Redis broker costs, and messages that are not Celery's: on
// real Redis 7 (db 7, every key under this run's prefixes, deleted afterwards), the big messages
// written by the real Celery 5.7 producer (tests/py/celery_seeder.py), the foreign ones LPUSHed
// raw as another producer would. Costs are counted (script calls, bytes), never timed.
// int-lane: uses redis/7 (every key under per-run prefixes)
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectRedis } from '@/lib/transports/redis/server';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { dropKeysAt } from '@/tests/support/redis';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import type { CeleryRedisCtx } from '@/lib/brokers/celery/redis/context';
import { SCAN_BYTES } from '@/lib/brokers/celery/redis/read-profile';
import { UNREAD_WHY } from '@/lib/brokers/celery/redis/overview';
import { celeryConfig, newCeleryWorld, redisAvailable, redisDb, spawnCelerySeeder } from './support';
import { taskQuery } from '@/tests/support/task-query';

const DB = 7;
const up = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const brokerPrefix = `ctbb-${tag}:`;
const resultPrefix = `ctbr-${tag}:`;
const w = newCeleryWorld(DB, DB);
w.env = { ...w.env, CT_BROKER_PREFIX: brokerPrefix, CT_RESULT_PREFIX: resultPrefix };
const KB = 1024;
const MB = KB * KB;
const many = `many-${tag}`;
const huge = `huge-${tag}`;
const odd = `odd-${tag}`;
let py: PySeeder;
let hugeId = '';

function open(queues: string[]) {
  let ctx: CeleryRedisCtx | undefined;
  const a = createCeleryRedisAdapter(
    celeryConfig(w, `bounds-${queues.join('-')}`, { globalKeyprefix: brokerPrefix, resultKeyprefix: resultPrefix, queues }),
    (c) => {
      ctx = c;
    },
  );
  return { a, stats: () => ({ ...ctx!.stats }) };
}

if (up) {
  beforeAll(async () => {
    py = spawnCelerySeeder(w);
    // 200 messages of 200 KB of arguments, as app.send_task writes them (about 267 KB each).
    const arg = 'x'.repeat(200 * KB);
    for (let i = 0; i < 200; i++) await py.call('enqueue', { task: 'ct.big', queue: many, args: [arg, i] });
    // One message of 10 MB between two small ones.
    await py.call('enqueue', { task: 'ct.small', queue: huge, args: [1] });
    hugeId = await py.call<string>('enqueue', { task: 'ct.huge', queue: huge, args: ['y'.repeat(10 * MB)] });
    await py.call('enqueue', { task: 'ct.small', queue: huge, args: [2] });
  });
  afterAll(async () => {
    await py?.close();
    await dropKeysAt(redisDb(DB), brokerPrefix);
    await dropKeysAt(redisDb(DB), resultPrefix);
  });

  describe('celery on redis: reads bounded in bytes', () => {
    it('counts 200 messages of 200 KB from their headers, and three concurrent polls cost one read', async () => {
      const { a, stats } = open([many]);
      try {
        const s0 = stats();
        const o = await a.overview();
        const s1 = stats();
        expect(o.queues.find((q) => q.name === many)).toMatchObject({ tasks: ['ct.big'], counts: { ready: 200, scheduled: 0 } });
        expect(o.queues[0]!.capped).toBeUndefined();
        // Bodies stay in Redis: about 1.5 KB of headers per message crosses and is parsed.
        expect(s1.parsed - s0.parsed).toBeLessThan(200 * 4 * KB);
        expect(s1.received - s0.received).toBeLessThan(200 * 4 * KB);
        expect(s1.touched - s0.touched).toBeGreaterThan(200 * 200 * KB);
        const three = await Promise.all([a.overview(), a.overview(), a.overview()]);
        const s2 = stats();
        expect(three.map((x) => x.queues[0]!.counts.ready)).toEqual([200, 200, 200]);
        await a.overview();
        const s3 = stats();
        // Three concurrent polls cost what one poll alone costs; a poll after the first reads
        // only the message at the right end of the kept walk (nothing changed: ./split.ts).
        expect(s2.calls - s1.calls).toBe(s3.calls - s2.calls);
        expect(s2.parsed - s1.parsed).toBe(s3.parsed - s2.parsed);
        expect(s3.parsed - s2.parsed).toBeLessThan((s1.parsed - s0.parsed) / 100);
      } finally {
        await a.close();
      }
    });

    it('shows a 10 MB message by its headers, opens its page and revokes it without decoding its body', async () => {
      const { a, stats } = open([huge]);
      try {
        const s0 = stats();
        expect((await a.overview()).queues[0]).toMatchObject({ tasks: ['ct.huge', 'ct.small'], counts: { ready: 3 } });
        const s1 = stats();
        expect(s1.parsed - s0.parsed).toBeLessThan(64 * KB);
        expect(s1.received - s0.received).toBeLessThan(64 * KB);
        const page = await a.listTasks(taskQuery({ state: 'ready', queue: huge }));
        expect(page.items.map((t) => t.task)).toEqual(['ct.small', 'ct.huge', 'ct.small']);
        expect(page.items[1]!.preview.text).toMatch(/^\['yyyy/);
        const t = await a.getTask(hugeId);
        expect(t?.payload.headers.find((h) => h.name === 'body')?.text).toMatch(
          /body too large to decode here \(message of [\d,]+ bytes\)/,
        );
        expect(t?.payload.foreign).toBeNull();
        expect(t?.rawSize).toBeGreaterThan(10 * MB);
        expect([t?.rawTruncated, t?.raw.length]).toEqual([true, 256 * KB]);
        const s2 = stats();
        expect(s2.parsed - s1.parsed).toBeLessThan(2 * MB);
        expect(s2.received - s1.received).toBeLessThan(2 * MB);
        const r = await a.revoke([hugeId]);
        expect(r.succeeded.map((x) => x.id)).toEqual([hugeId]);
        expect(await py.call('result', { id: hugeId })).toMatchObject({ status: 'REVOKED', name: 'ct.huge' });
        expect((await a.overview()).queues[0]).toMatchObject({ counts: { ready: 2 } });
      } finally {
        await a.close();
      }
    });

    it('says a count is a lower bound when a poll reaches its byte cap', async () => {
      // 200 x 267 KB (53 MB) plus 64 x 267 KB more: over the 64 MB one poll reads.
      const more = `more-${tag}`;
      const arg = 'x'.repeat(200 * KB);
      for (let i = 0; i < 64; i++) await py.call('enqueue', { task: 'ct.big', queue: more, args: [arg, i] });
      // The longest queue, read last: the budget is gone by then, so none of it is read.
      const last = `last-${tag}`;
      await py.call('enqueue_many', { messages: Array.from({ length: 300 }, (_, i) => ({ task: 'ct.small', queue: last, args: [i] })) });
      const { a, stats } = open([many, more, last]);
      try {
        const s0 = stats();
        const o = await a.overview();
        const s1 = stats();
        expect(s1.touched - s0.touched).toBeLessThan(SCAN_BYTES + 8 * MB);
        // The shorter queue is read whole; the longer one in part, with "+" and an estimate.
        expect(o.queues.find((q) => q.name === more)).toMatchObject({ counts: { ready: 64 } });
        const m = o.queues.find((q) => q.name === many)!;
        expect(m.counts.ready).toBeLessThan(200);
        expect(m.capped?.ready?.atLeast).toBe(m.counts.ready);
        expect(m.capped?.ready?.estimate).toBe(200);
        expect(m.tasks).toBeNull();
        // Unread, yet not unknown: its exact LLEN is the estimate, so the total has one too.
        const l = o.queues.find((q) => q.name === last)!;
        expect(l.counts.ready).toBe(0);
        expect(l.capped?.ready).toEqual({ atLeast: 0, estimate: 300, why: UNREAD_WHY });
        expect(l.capped?.scheduled).toMatchObject({ atLeast: 0, estimate: 0 });
        expect(o.totalsCapped?.ready).toEqual({ atLeast: m.counts.ready! + 64, estimate: 564 });
        expect(o.warnings?.join(' ')).toMatch(/read in part/);
        // The deepest message of the queue named second opens by id, although the queues read
        // in order would spend the byte budget on the first one: the search takes turns.
        const listed = (await a.listTasks(taskQuery({ state: 'ready', queue: more, limit: 100 }))).items;
        expect(listed).toHaveLength(64);
        for (const t of [listed[0]!, listed[63]!]) expect((await a.getTask(t.id))?.id).toBe(t.id);
      } finally {
        await a.close();
      }
    });
  });

  describe('celery on redis: messages that are not JSON', () => {
    it('lists them with a page that opens and removes them on revoke without storing a result', async () => {
      const c = connectRedis(redisDb(DB));
      const key = `${brokerPrefix}${odd}`;
      const pickle = Buffer.from([0x80, 0x04, 0x95, 0x0b, 0, 0, 0, 0, 0, 0, 0, 0x8c, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x94, 0x2e]);
      await c.lpush(key, 'not json at all <b>x</b>');
      await c.lpush(key, pickle);
      const { a } = open([odd]);
      const metaKeys = async () => (await c.keys(`${resultPrefix}celery-task-meta-*`)).filter((k) => !k.includes(hugeId));
      try {
        const before = await metaKeys();
        const listed = (await a.listTasks(taskQuery({ state: 'ready', queue: odd }))).items;
        expect(listed.map((t) => t.preview.kind)).toEqual(['foreign', 'foreign']);
        for (const t of listed) {
          const page = await a.getTask(t.id);
          expect(page?.id).toBe(t.id);
          expect(page?.payload.foreign?.code).toBe('not-celery');
        }
        expect((await a.getTask(listed[0]!.id))?.raw).toBe('not json at all <b>x</b>');
        const unknown = `nope-${tag}`;
        const r = await a.revoke([...listed.map((t) => t.id), unknown]);
        expect(r.succeeded.map((x) => x.id)).toEqual(listed.map((t) => t.id));
        expect(r.failed).toEqual([expect.objectContaining({ id: unknown, outcome: 'missing' })]);
        expect(await c.llen(key)).toBe(0);
        // Nothing stored: no REVOKED for the unknown id, none under an id the messages never had.
        expect(await metaKeys()).toEqual(before);
        expect((await a.overview()).queues[0]).toMatchObject({ counts: { ready: 0 } });
      } finally {
        c.disconnect();
        await a.close();
      }
    });

    it('says a failure count is a lower bound, with why, when the backend holds more records than one read takes', async () => {
      // CAP + 500 FAILURE records as the Redis backend stores them (result_extended), under a
      // result prefix of this case's own, and an index kept to CAP records (the adapter's is
      // RESULT_INDEX_CAP): every count the overview shows is "at least".
      const capPrefix = `ctbc-${tag}:`;
      const q = `capq-${tag}`;
      const c = connectRedis(redisDb(DB));
      const CAP = 2_000;
      const total = CAP + 500;
      const record = (id: string) =>
        JSON.stringify({
          status: 'FAILURE',
          result: { exc_type: 'ValueError', exc_message: ['boom'], exc_module: 'builtins' },
          traceback: null,
          children: [],
          date_done: '2026-12-04T10:00:00.000000+00:00',
          task_id: id,
          name: 'ct.fail',
          args: [],
          kwargs: {},
          queue: q,
        });
      const a = createCeleryRedisAdapter(
        celeryConfig(w, 'bounds-capped', { globalKeyprefix: brokerPrefix, resultKeyprefix: capPrefix, queues: [q] }),
        (x) => (x.resultCap = CAP),
      );
      try {
        for (let i = 0; i < total; i += 2000) {
          const p = c.pipeline();
          for (let j = i; j < Math.min(total, i + 2000); j++) p.set(`${capPrefix}celery-task-meta-f${j}`, record(`f${j}`), 'EX', 600);
          await p.exec();
        }
        const o = await a.overview();
        const capped = o.totalsCapped?.dead;
        expect(capped).toMatchObject({ atLeast: o.totals.dead, estimate: null, why: expect.stringMatching(/at least/) });
        expect(o.totals.dead).toBeLessThan(total);
        expect(o.totals.dead).toBe(CAP);
        const row = o.queues.find((x) => x.name === q)!;
        expect(row.capped?.dead).toMatchObject({ atLeast: row.dead, estimate: null });
      } finally {
        await a.close();
        await dropKeysAt(redisDb(DB), capPrefix);
        c.disconnect();
      }
    }, 60_000);
  });
} else {
  it.skip('celery on redis: bounded reads (Redis unavailable)', () => undefined);
}
