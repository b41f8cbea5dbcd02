// The shared adapter battery, and what Celery adds, on real Redis 7 seeded by the real Celery
// 5.7 / kombu 5.7 (tests/py/celery_seeder.py). Databases 10 (broker) and 8 (backend) are this
// file's own: flushed before and after.
// int-lane: owns redis/10 redis/8 (flushed before and after)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdapterContract, uniqueQueue, type ContractFixture } from '@/tests/contract';
import { ZEnqueueRequest } from '@/lib/brokers/schema';
import { connectRedis } from '@/lib/transports/redis/server';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import { celeryConfig, contractSeeder, newCeleryWorld, redisAvailable, spawnCelerySeeder } from './support';
import { taskQuery } from '@/tests/support/task-query';

const up = await redisAvailable();
const w = newCeleryWorld(10, 8);
let py: PySeeder;

async function flush() {
  for (const url of [w.broker, w.backend]) {
    const c = connectRedis(url);
    await c.flushdb();
    c.disconnect();
  }
}

async function makeFixture(): Promise<ContractFixture> {
  const adapters = [createCeleryRedisAdapter(celeryConfig(w))];
  return {
    adapter: adapters[0]!,
    makeSecond: () => {
      const b = createCeleryRedisAdapter(celeryConfig(w, 'celery-second'));
      adapters.push(b);
      return b;
    },
    seeder: contractSeeder(py),
    noOldestWaiting: true,
    noRunningWorker: true,
    async cleanup() {
      await py.call('ack_all');
      await Promise.all(adapters.map((a) => a.close()));
    },
  };
}

if (up) {
  beforeAll(async () => {
    await flush();
    py = spawnCelerySeeder(w);
  });
  afterAll(async () => {
    await py?.close();
    await flush();
  });
  runAdapterContract('celery on redis', makeFixture);

  describe('celery on redis: what Celery adds', () => {
    const adapter = () => createCeleryRedisAdapter(celeryConfig(w));

    it('writes exactly the message app.send_task writes for the same arguments', async () => {
      const q = uniqueQueue('same');
      const kwargs = { when: { __type__: 'datetime', __value__: '2026-01-02T03:04:05+00:00' }, n: 1.5, s: 'é' };
      const celery = JSON.parse(
        await py.call<string>('captured_send', {
          task: 'ct.same',
          queue: q,
          args: [1, 'two', [3]],
          kwargs: { ...kwargs, when: undefined },
          priority: 4,
        }),
      ) as Record<string, unknown>;
      const a = adapter();
      try {
        const ours = await a.enqueue(
          ZEnqueueRequest.parse({
            task: 'ct.same',
            queue: q,
            fields: { args: '[1, "two", [3]]', kwargs: JSON.stringify({ n: 1.5, s: 'é' }), priority: 4 },
          }),
        );
        const mine = JSON.parse(ours.payload) as typeof celery;
        const strip = (m: typeof celery) => {
          const h = { ...(m.headers as Record<string, unknown>) };
          const p = { ...(m.properties as Record<string, unknown>) };
          for (const k of ['id', 'root_id', 'origin']) h[k] = typeof h[k];
          for (const k of ['correlation_id', 'reply_to', 'delivery_tag']) p[k] = typeof p[k];
          return { ...m, headers: h, properties: p };
        };
        expect(Object.keys(mine)).toEqual(Object.keys(celery));
        expect(Object.keys(mine.headers as object)).toEqual(Object.keys(celery.headers as object));
        expect(strip(mine)).toEqual(strip(celery));
        const h = mine.headers as Record<string, string>;
        expect(h.root_id).toBe(h.id);
        expect(h.origin).toMatch(/^gen\d+@/);
        // The body bytes too: kombu's JSON with Python's separators and ASCII escapes.
        expect(mine.body).toBe(celery.body);
        expect(await py.call('state', { id: ours.id })).toBe('ready');
      } finally {
        await a.close();
      }
    });

    it('decodes kombu-typed arguments a real producer sent', async () => {
      const q = uniqueQueue('typed');
      const id = await py.call<string>('enqueue_typed', { task: 'ct.typed', queue: q });
      const a = adapter();
      try {
        const t = await a.getTask(id);
        expect(t?.payload.format).toBe('celery');
        expect(t?.payload.foreign).toBeNull();
        const kw = Object.fromEntries(t?.payload.kwargs?.t === 'dict' ? t.payload.kwargs.entries : []);
        expect(kw.when).toMatchObject({ t: 'datetime', v: '2026-01-02T03:04:05.000006+00:00', aware: true });
        expect(kw.day).toEqual({ t: 'date', v: '2026-02-03' });
        expect(kw.price).toEqual({ t: 'decimal', v: '19.99' });
        expect(kw.ref).toEqual({ t: 'uuid', v: '12345678-1234-5678-1234-567812345678' });
        expect(kw.blob).toMatchObject({ t: 'bytes', size: 2 });
        expect(kw.raw).toMatchObject({ t: 'bytes', size: 2 });
        expect(t?.payload.args).toEqual({
          t: 'list',
          items: [
            { t: 'int', v: '1' },
            { t: 'str', v: 'two' },
          ],
        });
        expect(t?.payload.headers.find((h) => h.name === 'root_id')?.text).toBe(id);
      } finally {
        await a.close();
      }
    });

    it('lists waiting messages in the order kombu hands them out: lower priority numbers first', async () => {
      const q = uniqueQueue('prio');
      const ids = await py.call<string[]>('enqueue_many', {
        messages: [9, 0, 5, 3, 0].map((priority, i) => ({ task: 'ct.p', queue: q, priority, args: [i] })),
      });
      const a = adapter();
      try {
        const listed = (await a.listTasks(taskQuery({ state: 'ready', queue: q }))).items.map((t) => t.id);
        // FIFO inside a bucket; buckets 0 (0-2), 3 (3-5), 6, 9, in that order.
        expect(listed).toEqual([ids[1], ids[4], ids[2], ids[3], ids[0]]);
        const claimed: string[] = [];
        for (let i = 0; i < 5; i++) claimed.push((await py.call<string>('claim', { queue: q }))!);
        expect(claimed).toEqual(listed);
      } finally {
        await a.close();
      }
    });

    it("reads a broker under kombu's global_keyprefix: queues, waiting and reserved messages", async () => {
      const prefix = `ctp${Date.now().toString(36)}:`;
      const other = spawnCelerySeeder({ ...w, env: { ...w.env, CT_BROKER_PREFIX: prefix } });
      const a = createCeleryRedisAdapter(celeryConfig(w, 'celery-prefixed', { globalKeyprefix: prefix }));
      try {
        const q = uniqueQueue('prefixed');
        const [first, second] = await other.call<string[]>('enqueue_many', {
          messages: [
            { task: 'ct.p', queue: q },
            { task: 'ct.p', queue: q },
          ],
        });
        expect(await other.call('claim', { queue: q })).toBe(first);
        const o = await a.overview();
        expect(o.queues.find((x) => x.name === q)).toMatchObject({ counts: { ready: 1, running: 1 } });
        expect((await a.listTasks(taskQuery({ state: 'ready', queue: q }))).items.map((t) => t.id)).toEqual([second]);
        expect((await a.listTasks(taskQuery({ queue: q, state: 'running' }))).items.map((t) => t.id)).toEqual([first]);
        // The unprefixed adapter sees none of it.
        const plain = adapter();
        expect((await plain.overview()).queues.map((x) => x.name)).not.toContain(q);
        await plain.close();
        await other.call('ack_all');
      } finally {
        await a.close();
        await other.close();
      }
    });

    it('reports a message kombu cannot decode instead of hiding it', async () => {
      const q = uniqueQueue('bad');
      const c = connectRedis(w.broker);
      const body = Buffer.from('[[{"__type__": "frobnicate", "__value__": 1}], {}, {}]').toString('base64');
      const item = JSON.stringify({
        body,
        'content-encoding': 'utf-8',
        'content-type': 'application/json',
        headers: { task: 'ct.bad', id: `bad-${q}` },
        properties: { priority: 0, body_encoding: 'base64', delivery_info: { exchange: '', routing_key: q } },
      });
      await c.lpush(q, item);
      c.disconnect();
      // No binding names this list (a raw LPUSH): only a configured queue shows it.
      const a = createCeleryRedisAdapter(celeryConfig(w, 'celery-bad', { queues: [q] }));
      try {
        const t = await a.getTask(`bad-${q}`);
        expect(t?.payload.foreign?.reason).toMatch(/frobnicate/);
        expect(t?.preview.kind).toBe('foreign');
      } finally {
        await a.close();
      }
    });
  });
} else {
  it.skip('celery on redis (Redis unavailable)', () => undefined);
}
