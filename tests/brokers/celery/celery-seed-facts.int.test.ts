// Where Celery 5.7 / kombu 5.7 differ from the team's seed facts (listed
// in docs/systems/celery.md "Differences from the seed facts"), pinned with the REAL worker: on
// Redis (db 7 under this run's key prefixes) and RabbitMQ 3.10 and 4.3. Queues are this run's own.
// int-lane: owns rabbitmq; uses redis/7 (Celery lists what it finds on the vhosts; db 7 under per-run prefixes)
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ZEnqueueRequest } from '@/lib/brokers/schema';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import { newCeleryWorld, redisAvailable, redisDb, spawnCelerySeeder, startWorker, stopWorker, until } from './redis/support';
import { dropKeysAt } from '@/tests/support/redis';

const DB = 7;
const up = await redisAvailable();
const tag = randomBytes(4).toString('hex');

const dropPrefix = (prefix: string) => dropKeysAt(redisDb(DB), prefix);

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
}, 30_000);

/** A Celery app on db 7 under its own broker and result prefixes (dropped after the run), with extra rt_celery_app env. */
function redisWorld(label: string, extra: Record<string, string> = {}) {
  const w = newCeleryWorld(DB, DB);
  const brokerPrefix = `ctsf-${tag}-${label}:`;
  const resultPrefix = `ctsfr-${tag}-${label}:`;
  const env = { ...w.env, CT_BROKER_PREFIX: brokerPrefix, CT_RESULT_PREFIX: resultPrefix, ...extra };
  const adapter = () =>
    createCeleryRedisAdapter({
      id: `ctsf-${label}`,
      name: label,
      url: w.broker,
      readOnly: false,
      options: { resultBackend: w.backend, globalKeyprefix: brokerPrefix, resultKeyprefix: resultPrefix, inspectTimeoutMs: 300 },
    });
  cleanup.push(
    () => dropPrefix(brokerPrefix),
    () => dropPrefix(resultPrefix),
  );
  return { w: { ...w, env }, brokerPrefix, resultPrefix, adapter };
}

if (!up) {
  it.skip('celery seed facts', () => undefined);
} else {
  describe('celery 5.7 on redis, where the seed facts differ', () => {
    it("stores the delivery's routing key as a FAILURE record's `queue`; replay resolves it to the bound queue, whose worker runs it", async () => {
      const Q = `ctsf-${tag}-rkq`;
      const RK = `ctsf-${tag}-rk`;
      const { w, brokerPrefix, adapter } = redisWorld('rk', { CT_ROUTING_KEY: `${Q}:${RK}` });
      const a = adapter();
      const py = spawnCelerySeeder(w);
      const worker = startWorker(w, [Q], `ctsf-${Q}`);
      const flag = `rk-${tag}`;
      try {
        // Routing needs the worker's binding of Q under RK.
        await until('the worker to answer', async () => (await a.listWorkers()).some((x) => x.queues.includes(Q)), 60_000, worker.log);
        // Routed as task_routes routes (exchange Q, routing key RK; Q is bound to Q under RK). Sent
        // with queue=Q instead, send_task uses the default exchange and routing key Q.
        const id = await py.call<string>('enqueue', { task: 'ct.flaky', exchange: Q, routing_key: RK, args: [flag] });
        await until('FAILURE', async () => (await a.getResult(id))?.status === 'FAILURE', 30_000, worker.log);
        const dead = await a.getDead(id);
        expect(dead?.queue).toBe(RK);
        expect(dead?.raw).toContain(`"queue": "${RK}"`);
        // The edit-replay preview's default queue is the bound one.
        const preview = await a.previewReplayEdited!(id, {});
        expect(preview.before).toContain(`"${Q}"`);
        expect(preview.before).not.toContain(`"${RK}"`);
        // Replay sends to Q (bound under RK), where the worker of the ORIGINAL queue runs it.
        writeFileSync(path.join(w.out, flag), '1');
        const r = await a.replayDead([id]);
        expect(r.failed).toEqual([]);
        expect(r.succeeded[0]?.message).toBe(`sent again to ${Q} (bound to routing key ${RK} on exchange ${Q})`);
        await until('the replay to run', async () => (await a.getResult(id))?.status === 'SUCCESS', 30_000, worker.log);
        const r2 = new Redis(redisDb(DB), { maxRetriesPerRequest: 1 });
        try {
          expect(await r2.exists(`${brokerPrefix}${RK}`)).toBe(0); // nothing went to a list named after the key
        } finally {
          r2.disconnect();
        }
      } finally {
        await stopWorker(worker.proc);
        await py.close();
        await a.close();
      }
    }, 90_000);

    it('keeps FAILURE records for result_failure_expires, not result_expires; the console shows the record’s own expiry', async () => {
      const Q = `ctsf-${tag}-fx`;
      const { w, adapter } = redisWorld('fx', { CT_FAILURE_EXPIRES: '600' });
      const a = adapter();
      const worker = startWorker(w, [Q], `ctsf-${Q}`);
      try {
        const send = (task: string, args: unknown[]) =>
          a.enqueue(ZEnqueueRequest.parse({ task, queue: Q, fields: { args: JSON.stringify(args) } }));
        const f = await send('ct.flaky', [`never-${tag}`]);
        const s = await send('ct.record', ['ok']);
        await until('FAILURE', async () => (await a.getResult(f.id))?.status === 'FAILURE', 30_000, worker.log);
        await until('SUCCESS', async () => (await a.getResult(s.id))?.status === 'SUCCESS', 30_000, worker.log);
        const left = async (id: string) => (Date.parse((await a.getResult(id))!.expiresAt!) - Date.now()) / 1000;
        expect(await left(f.id)).toBeGreaterThan(500);
        expect(await left(f.id)).toBeLessThanOrEqual(600);
        expect(await left(s.id)).toBeGreaterThan(86_000);
      } finally {
        await stopWorker(worker.proc);
        await a.close();
      }
    }, 90_000);

    it('marks a message a worker gave back on shutdown as redelivered, and the console shows that header', async () => {
      const Q = `ctsf-${tag}-rd`;
      const { w, adapter } = redisWorld('rd');
      const a = adapter();
      const worker = startWorker(w, [Q], `ctsf-${Q}`);
      try {
        const t = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.record', queue: Q, fields: { args: '["later"]', countdown: 120 } }));
        await until('the worker to reserve it', async () => (await a.getTask(t.id))?.state === 'running', 30_000, worker.log);
        const before = await a.getTask(t.id);
        expect(before?.payload.headers.map((h) => h.name)).not.toContain('redelivered');
        await stopWorker(worker.proc);
        expect(worker.log()).toContain('Restoring 1 unacknowledged message(s)');
        const back = await until('it to wait again', async () => {
          const x = await a.getTask(t.id);
          return x?.state === 'scheduled' ? x : null;
        });
        expect(back.payload.headers.find((h) => h.name === 'redelivered')).toMatchObject({ value: expect.anything() });
        expect(JSON.stringify(back.payload.headers.find((h) => h.name === 'redelivered'))).toContain('true');
      } finally {
        await stopWorker(worker.proc);
        await a.close();
      }
    }, 90_000);
  });

  for (const [label, url, mgmt] of [
    ['rabbitmq 4.3', process.env.POTATOQ_TEST_RABBITMQ4_URL, process.env.POTATOQ_TEST_RABBITMQ4_MGMT],
    ['rabbitmq 3.10', process.env.POTATOQ_TEST_RABBITMQ3_URL, process.env.POTATOQ_TEST_RABBITMQ3_MGMT],
  ] as const) {
    if (!url) {
      const line = `!!! ${label} is not configured (POTATOQ_TEST_RABBITMQ*_URL): SKIPPING its Celery seed-fact pins !!!`;
      if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
      console.warn(line);
      continue;
    }
    describe(`celery 5.7 on ${label}, where the seed facts differ`, () => {
      it('runs a task on a queue the console declared (durable, classic, no arguments) once a real worker declares it too', async () => {
        const Q = `ctsf-${tag}-${label.includes('4') ? 'r4' : 'r3'}`;
        const w0 = newCeleryWorld(DB, DB);
        const resultPrefix = `ctsfr-${tag}-${Q}:`;
        const w = { ...w0, broker: url, env: { ...w0.env, CT_BROKER: url, CT_RESULT_PREFIX: resultPrefix } };
        cleanup.push(() => dropPrefix(resultPrefix));
        const a = createCeleryRabbitAdapter({
          id: 'ctsf-rmq',
          name: 'ctsf-rmq',
          url,
          readOnly: false,
          options: { resultBackend: w.backend, resultKeyprefix: resultPrefix, queues: [Q] },
        });
        const conn = await amqp.connect(url);
        cleanup.push(async () => {
          const ch = await conn.createChannel();
          await ch.deleteQueue(Q).catch(() => undefined);
          await ch.deleteExchange(Q).catch(() => undefined);
          await conn.close();
        });
        // The console declares the missing queue (durable, no arguments), then a worker starts on it.
        const t = await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.record', queue: Q, fields: { args: '["first"]' } }));
        const worker = startWorker(w, [Q], `ctsf-${Q}`);
        try {
          await until('the task to run', async () => (await a.getResult(t.id))?.status === 'SUCCESS', 60_000, worker.log);
          expect(worker.log()).not.toMatch(/PRECONDITION_FAILED|inequivalent arg/);
        } finally {
          await stopWorker(worker.proc);
          await a.close();
        }
      }, 120_000);

      it('replays a task routed by exchange + routing key to the queue bound under that key (the bindings of the management API)', async () => {
        const Q = `ctsf-${tag}-${label.includes('4') ? 'rk4' : 'rk3'}`;
        const RK = `${Q}.key`;
        const w0 = newCeleryWorld(DB, DB);
        const resultPrefix = `ctsfr-${tag}-${Q}:`;
        const w = { ...w0, broker: url, env: { ...w0.env, CT_BROKER: url, CT_RESULT_PREFIX: resultPrefix, CT_ROUTING_KEY: `${Q}:${RK}` } };
        cleanup.push(() => dropPrefix(resultPrefix));
        const a = createCeleryRabbitAdapter({
          id: 'ctsf-rmq-rk',
          name: 'ctsf-rmq-rk',
          url,
          readOnly: false,
          options: { resultBackend: w.backend, resultKeyprefix: resultPrefix, queues: [Q], managementUrl: mgmt, inspectTimeoutMs: 1000 },
        });
        const conn = await amqp.connect(url);
        cleanup.push(async () => {
          const ch = await conn.createChannel();
          for (const q of [Q, RK]) await ch.deleteQueue(q).catch(() => undefined);
          await ch.deleteExchange(Q).catch(() => undefined);
          await conn.close();
        });
        const py = spawnCelerySeeder(w);
        const worker = startWorker(w, [Q], `ctsf-${Q}`);
        const flag = `rk-${tag}-${Q}`;
        try {
          await until('the worker to answer', async () => (await a.listWorkers()).some((x) => x.queues.includes(Q)), 60_000, worker.log);
          const id = await py.call<string>('enqueue', { task: 'ct.flaky', exchange: Q, routing_key: RK, args: [flag] });
          await until('FAILURE', async () => (await a.getResult(id))?.status === 'FAILURE', 30_000, worker.log);
          expect((await a.getDead(id))?.queue).toBe(RK);
          writeFileSync(path.join(w.out, flag), '1');
          const r = await a.replayDead([id]);
          expect(r.failed).toEqual([]);
          expect(r.succeeded[0]?.message).toBe(`sent again to ${Q} (bound to routing key ${RK} on exchange ${Q})`);
          await until('the replay to run', async () => (await a.getResult(id))?.status === 'SUCCESS', 30_000, worker.log);
          const ch = await conn.createChannel();
          ch.on('error', () => undefined); // the 404 closes the channel
          await expect(ch.checkQueue(RK)).rejects.toThrow(/NOT_FOUND/); // no queue named after the key
        } finally {
          await stopWorker(worker.proc);
          await py.close();
          await a.close();
        }
      }, 120_000);
    });
  }
}
