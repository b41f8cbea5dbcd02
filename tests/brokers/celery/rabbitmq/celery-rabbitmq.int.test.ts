// The shared battery and round trips with the real Celery 5.7 worker on real RabbitMQ 3.10 and
// 4.3, results in Redis (db 9 under a per-run key prefix). Queues are per test (uniqueQueue)
// and deleted afterwards.
// int-lane: owns rabbitmq; uses redis/9 (the battery lists the vhosts; results under a per-run prefix)
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdapterContract, uniqueQueue, type ContractFixture } from '@/tests/contract';
import { ZDeadListQuery, ZEnqueueRequest } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { PySeeder } from '@/tests/support/potatoq-seeder';
import {
  contractSeeder,
  newCeleryWorld,
  redisAvailable,
  spawnCelerySeeder,
  startWorker,
  stopWorker,
  until,
  type CeleryWorld,
} from '@/tests/brokers/celery/redis/support';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';

const SERVERS = [
  { label: 'rabbitmq 3.10', url: process.env.POTATOQ_TEST_RABBITMQ3_URL, mgmt: process.env.POTATOQ_TEST_RABBITMQ3_MGMT },
  { label: 'rabbitmq 4.3', url: process.env.POTATOQ_TEST_RABBITMQ4_URL, mgmt: process.env.POTATOQ_TEST_RABBITMQ4_MGMT },
];
const redisUp = await redisAvailable();

/** The management API's unacked count of a queue (its statistics lag up to 5 s), logged in as the AMQP user. */
async function unackedOf(mgmt: string, amqpUrl: string, queue: string): Promise<number> {
  const u = new URL(amqpUrl);
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  const res = await fetch(`${mgmt}/api/queues/%2F/${encodeURIComponent(queue)}`, { headers: { authorization: `Basic ${auth}` } });
  return res.ok ? (((await res.json()) as { messages_unacknowledged?: number }).messages_unacknowledged ?? 0) : 0;
}

function world(url: string): CeleryWorld {
  const w = newCeleryWorld(0, 9);
  const prefix = `ctrmq${randomBytes(4).toString('hex')}`;
  return { ...w, broker: url, env: { ...w.env, CT_BROKER: url, CT_RESULT_PREFIX: prefix } };
}

for (const server of SERVERS) {
  if (!server.url || !server.mgmt || !redisUp) {
    const line = `!!! ${server.label} is not configured (POTATOQ_TEST_RABBITMQ*_URL/_MGMT) or Redis is down: SKIPPING its Celery suites !!!`;
    if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
    console.warn(line);
    it.skip(`celery on ${server.label}`, () => undefined);
    continue;
  }
  const url = server.url;
  const mgmt = server.mgmt;
  const w = world(url);
  const config = (id = 'celery-rmq') => ({
    id,
    name: id,
    url,
    readOnly: false,
    options: { resultBackend: w.backend, resultKeyprefix: w.env.CT_RESULT_PREFIX, managementUrl: mgmt, inspectTimeoutMs: 1000 },
  });

  describe(`celery on ${server.label}`, () => {
    let py: PySeeder;
    beforeAll(() => {
      py = spawnCelerySeeder(w);
    });
    afterAll(async () => {
      await py.call('delete_queues').catch(() => undefined);
      await py.close();
    });

    async function makeFixture(): Promise<ContractFixture> {
      const adapters = [createCeleryRabbitAdapter(config())];
      const base = contractSeeder(py);
      const claims = new Map<string, number>();
      return {
        adapter: adapters[0]!,
        makeSecond: () => {
          const b = createCeleryRabbitAdapter(config('celery-rmq-2'));
          adapters.push(b);
          return b;
        },
        seeder: {
          ...base,
          claim: async (queue) => {
            const id = await base.claim(queue);
            if (id) {
              // The management API's counts are sampled every 5 s: wait until it shows the claim.
              const n = (claims.get(queue) ?? 0) + 1;
              claims.set(queue, n);
              await until(`${n} unacked in ${queue}`, async () => (await unackedOf(mgmt, url, queue)) >= n, 20_000);
            }
            return id;
          },
        },
        unknownCounts: ['scheduled'],
        noOldestWaiting: true,
        noRunningWorker: true,
        heldIdsUnknown: "RabbitMQ counts a queue's unacknowledged messages but does not say which ones a consumer holds",
        etaWaitsInQueue: true,
        async cleanup() {
          await py.call('ack_all');
          await Promise.all(adapters.map((a) => a.close()));
        },
      };
    }

    runAdapterContract(`celery on ${server.label}`, makeFixture);

    it('publishes exactly what app.send_task publishes: AMQP headers, properties and body', async () => {
      const q = uniqueQueue('same');
      const celery = await py.call<{ headers: Record<string, unknown>; properties: Record<string, unknown>; body: string }>(
        'captured_send',
        {
          task: 'ct.same',
          queue: q,
          args: [1, 'two'],
          kwargs: { n: 1.5 },
          priority: 3,
        },
      );
      const a = createCeleryRabbitAdapter(config());
      try {
        const ours = await a.enqueue(
          ZEnqueueRequest.parse({ task: 'ct.same', queue: q, fields: { args: '[1, "two"]', kwargs: '{"n": 1.5}', priority: 3 } }),
        );
        const mine = await py.call<typeof celery>('get_one', { queue: q });
        const scrub = (m: typeof celery) => ({
          headers: { ...m.headers, id: 'x', root_id: 'x', origin: typeof m.headers.origin },
          properties: { ...m.properties, correlation_id: 'x', reply_to: typeof m.properties.reply_to },
          body: m.body,
        });
        expect(Object.keys(mine.headers)).toEqual(Object.keys(celery.headers));
        expect(scrub(mine)).toEqual(scrub(celery));
        expect(mine.headers.id).toBe(ours.id);
      } finally {
        await a.close();
      }
    });

    describe('with a real worker', () => {
      let worker: ReturnType<typeof startWorker>;
      let a: BrokerAdapter;
      const Q = uniqueQueue('work');
      const ran = (id: string) => path.join(w.out, `${id}.json`);
      const statusOf = async (id: string) => (await a.getResult(id))?.status ?? null;
      beforeAll(async () => {
        a = createCeleryRabbitAdapter(config('celery-rmq-rt'));
        worker = startWorker(w, [Q], `ct-${Q}`);
        await until('the worker to answer', async () => (await a.listWorkers()).some((x) => x.queues.includes(Q)), 60_000, worker.log);
      }, 90_000);
      afterAll(async () => {
        if (worker) await stopWorker(worker.proc);
        await py.call('delete_queues', { names: [Q] }).catch(() => undefined);
        await a?.close();
      }, 30_000);

      it('runs what the console enqueued with the right types, and replays its failure', async () => {
        const t = await a.enqueue(
          ZEnqueueRequest.parse({ task: 'ct.record', queue: Q, fields: { args: '[1, {"__type__": "decimal", "__value__": "2.50"}]' } }),
        );
        await until('the task to run', async () => existsSync(ran(t.id)), 30_000, worker.log);
        expect((JSON.parse(readFileSync(ran(t.id), 'utf8')) as { args: unknown }).args).toEqual([
          ['int', '1'],
          ['Decimal', "Decimal('2.50')"],
        ]);
        const flag = `flag-${Date.now()}`;
        const f = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.flaky', queue: Q, fields: { args: JSON.stringify([flag]) } }));
        await until('FAILURE', async () => (await statusOf(f.id)) === 'FAILURE', 30_000, worker.log);
        expect((await a.listDead(ZDeadListQuery.parse({ queue: Q }))).items.map((d) => d.id)).toContain(f.id);
        writeFileSync(path.join(w.out, flag), '1');
        expect((await a.replayDead([f.id])).succeeded.map((o) => o.id)).toEqual([f.id]);
        await until('the replay to succeed', async () => (await statusOf(f.id)) === 'SUCCESS', 30_000, worker.log);
      });

      it('broadcasts a revoke the worker honours: a message it holds until its ETA never runs', async () => {
        // RabbitMQ pushes messages to a worker's prefetch ahead of time; a broadcast reaches the
        // worker after what it already received, so the case a revoke can stop is a held ETA.
        const victim = await a.enqueue(
          ZEnqueueRequest.parse({ task: 'ct.record', queue: Q, fields: { args: '["victim"]', countdown: 3 } }),
        );
        const held = async () => {
          const s = await py.call<Record<string, Array<{ request?: { id?: string } }>> | null>('inspect', {
            method: 'scheduled',
            timeout: 1,
          });
          return Object.values(s ?? {}).some((xs) => xs.some((x) => x.request?.id === victim.id));
        };
        await until('the worker to hold it until its ETA', held, 20_000, worker.log);
        const r = await a.revoke([victim.id]);
        expect(r.succeeded.map((o) => o.id)).toEqual([victim.id]);
        await until('REVOKED from the worker', async () => (await statusOf(victim.id)) === 'REVOKED', 20_000, worker.log);
        const after = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.record', queue: Q, fields: { args: '["after"]' } }));
        await until('the task after it to run', async () => existsSync(ran(after.id)), 30_000, worker.log);
        expect(existsSync(ran(victim.id))).toBe(false);
      });

      it('purges the ready messages and leaves the running task (and the one in its prefetch) alone', async () => {
        const sleeper = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.sleep', queue: Q, fields: { args: '[6]' } }));
        await until('the sleeper to start', async () => existsSync(path.join(w.out, `${sleeper.id}.started`)), 30_000, worker.log);
        const ids: string[] = [];
        for (const x of ['a', 'b', 'c'])
          ids.push((await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.record', queue: Q, fields: { args: JSON.stringify([x]) } }))).id);
        // Celery acks a task when it starts, so RabbitMQ may push the next message into the
        // worker's prefetch: that one is unacknowledged, not in the queue, and runs later.
        await new Promise((r) => setTimeout(r, 1000));
        const ready = (await a.overview()).queues.find((q) => q.name === Q)?.counts.ready ?? -1;
        expect([2, 3]).toContain(ready);
        expect((await a.purge(Q)).removed).toBe(ready);
        await until('the sleeper to finish', async () => (await statusOf(sleeper.id)) === 'SUCCESS', 30_000, worker.log);
        const marker = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.record', queue: Q, fields: { args: '["marker"]' } }));
        await until('a task after the purge to run', async () => existsSync(ran(marker.id)), 30_000, worker.log);
        expect(ids.filter((id) => existsSync(ran(id)))).toEqual(ids.slice(0, 3 - ready));
      });
    });
  });
}
