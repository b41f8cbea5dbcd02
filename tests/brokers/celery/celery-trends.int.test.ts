// Celery's dead-letter histogram (trend charts) against records a REAL Celery 5.7 worker wrote:
// on Redis (broker and results in db 7 under this run's key prefixes) and on RabbitMQ 3.10 and
// 4.3 (results in db 7); on 4.3 also a deadLetterQueue the worker rejects tasks into, counted by
// x-death time. Queues are this run's own and deleted afterwards; the keys under the prefixes too.
// int-lane: owns rabbitmq; uses redis/7 (Celery lists what it finds on the vhosts; db 7 under per-run prefixes)
import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery, ZEnqueueRequest } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { bucketTimes } from '@/lib/trends/ranges';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';
import { CELERY_V3_DLQ_REFUSAL } from '@/lib/brokers/celery/rabbitmq/dlq';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import { newCeleryWorld, redisAvailable, redisDb, startWorker, stopWorker, until, type CeleryWorld } from './redis/support';
import { dropKeysAt } from '@/tests/support/redis';

const MIN = 60_000;
const DB = 7;
const redisUp = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const window = () => ({ fromMs: (Math.floor(Date.now() / MIN) - 9) * MIN, bucketMs: MIN, buckets: 11 });
const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);

const dropPrefix = (prefix: string) => dropKeysAt(redisDb(DB), prefix);

/** A world on db 7: `broker` is a Redis URL (under its own key prefix) or an AMQP one. */
function world(broker: string | null, label: string): CeleryWorld & { resultPrefix: string; brokerPrefix: string } {
  const w = newCeleryWorld(DB, DB);
  const resultPrefix = `cttr-${tag}-${label}:`;
  const brokerPrefix = `cttrb-${tag}-${label}:`;
  const env: Record<string, string> = { ...w.env, CT_RESULT_PREFIX: resultPrefix };
  if (broker) env.CT_BROKER = broker;
  else env.CT_BROKER_PREFIX = brokerPrefix;
  return { ...w, broker: broker ?? w.broker, env, resultPrefix, brokerPrefix };
}

/**
 * The worker fails two tasks of `q` (the same ValueError but for a number) and runs one; the
 * histogram counts the two in the buckets of their date_done, per queue and per group.
 */
async function checkRecords(a: BrokerAdapter, q: string, log: () => string): Promise<void> {
  const send = (task: string, args: unknown[]) =>
    a.enqueue(ZEnqueueRequest.parse({ task, queue: q, fields: { args: JSON.stringify(args) } }));
  const ids = [(await send('ct.flaky', [`f-${tag}-1`])).id, (await send('ct.flaky', [`f-${tag}-22`])).id];
  const ok = (await send('ct.record', ['fine'])).id;
  const done: number[] = [];
  for (const id of ids) {
    const r = await until(
      `FAILURE of ${id}`,
      async () => ((await a.getResult(id))?.status === 'FAILURE' ? a.getResult(id) : null),
      30_000,
      log,
    );
    done.push(Date.parse(r!.dateDone!));
  }
  await until('the SUCCESS', async () => (await a.getResult(ok))?.status === 'SUCCESS', 30_000, log);
  const w = window();
  const h = await a.deadHistogram!({ ...w, queue: q });
  expect(h).toEqual({ ...bucketTimes(done, w), scannedNewest: null });
  expect(sum(h.counts)).toBe(2);
  const [group] = (await a.deadGroups({ queue: q })).groups;
  expect(group).toMatchObject({ count: 2, pattern: expect.stringMatching(/^ValueError: flag f-\S+ is not set$/) });
  expect((await a.deadHistogram!({ ...w, queue: q, group: group!.fingerprint })).counts).toEqual(h.counts);
  expect(sum((await a.deadHistogram!({ ...w, queue: q, group: 'fp-0000000000000000' })).counts)).toBe(0);
  expect(sum((await a.deadHistogram!({ ...w, queue: `${q}-other` })).counts)).toBe(0);
  expect(sum((await a.deadHistogram!({ ...w, fromMs: w.fromMs - 60 * MIN, queue: q })).counts)).toBe(0);
}

if (!redisUp) {
  it.skip('celery trends', () => undefined);
} else {
  describe('celery dead-letter histogram on redis', () => {
    const w = world(null, 'redis');
    const Q = `cttr-${tag}-redis`;
    let a: BrokerAdapter;
    let worker: ReturnType<typeof startWorker>;
    beforeAll(async () => {
      a = createCeleryRedisAdapter({
        id: 'cttr',
        name: 'cttr',
        url: w.broker,
        readOnly: false,
        options: { resultBackend: w.backend, globalKeyprefix: w.brokerPrefix, resultKeyprefix: w.resultPrefix, inspectTimeoutMs: 300 },
      });
      worker = startWorker(w, [Q], `cttr-${Q}`);
    }, 30_000);
    afterAll(async () => {
      if (worker) await stopWorker(worker.proc);
      await a?.close();
      await dropPrefix(w.resultPrefix);
      await dropPrefix(w.brokerPrefix);
    }, 30_000);

    it("counts the worker's FAILURE records by date_done, per queue and per group", () => checkRecords(a, Q, worker.log), 90_000);
  });

  const URL4 = process.env.POTATOQ_TEST_RABBITMQ4_URL;
  const URL3 = process.env.POTATOQ_TEST_RABBITMQ3_URL;
  for (const [label, url] of [
    ['rabbitmq 4.3', URL4],
    ['rabbitmq 3.10', URL3],
  ] as const) {
    if (!url) {
      const line = `!!! ${label} is not configured (POTATOQ_TEST_RABBITMQ*_URL): SKIPPING its Celery trends suite !!!`;
      if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
      console.warn(line);
      it.skip(`celery trends on ${label}`, () => undefined);
      continue;
    }
    const short = label.includes('4') ? 'r4' : 'r3';
    const Q = `cttr-${tag}-${short}`;
    const DLQ = `cttr-${tag}-${short}-dead`;
    // On 4.3 the worker declares Q dead-lettering into DLQ (CT_DLX), as the app would.
    const w0 = world(url, short);
    const w = short === 'r4' ? { ...w0, env: { ...w0.env, CT_DLX: `${Q}:${DLQ}` } } : w0;
    const config = (deadLetterQueue?: string) => ({
      id: `cttr-${short}`,
      name: `cttr-${short}`,
      url,
      readOnly: false,
      options: {
        resultBackend: w.backend,
        resultKeyprefix: w.resultPrefix,
        queues: [Q],
        inspectTimeoutMs: 1000,
        ...(deadLetterQueue ? { deadLetterQueue } : {}),
      },
    });

    describe(`celery dead-letter histogram on ${label}`, () => {
      let conn: amqp.ChannelModel;
      let ch: amqp.Channel;
      let a: BrokerAdapter;
      let worker: ReturnType<typeof startWorker>;
      beforeAll(async () => {
        conn = await amqp.connect(url);
        ch = await conn.createChannel();
        if (short === 'r4') {
          await ch.assertQueue(DLQ, { durable: true });
          await ch.assertExchange(Q, 'direct', { durable: true });
          await ch.assertQueue(Q, { durable: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': DLQ } });
          await ch.bindQueue(Q, Q, Q);
        }
        a = createCeleryRabbitAdapter(config(short === 'r4' ? DLQ : undefined));
        worker = startWorker(w, [Q], `cttr-${Q}`);
        await until('the worker to answer', async () => (await a.listWorkers()).some((x) => x.queues.includes(Q)), 60_000, worker.log);
      }, 90_000);
      afterAll(async () => {
        if (worker) await stopWorker(worker.proc);
        await a?.close();
        for (const name of [Q, DLQ]) await ch?.deleteQueue(name).catch(() => undefined);
        await ch?.deleteExchange(Q).catch(() => undefined);
        await conn?.close().catch(() => undefined);
        await dropPrefix(w.resultPrefix);
      }, 30_000);

      it("counts the worker's FAILURE records by date_done, per queue and per group", () => checkRecords(a, Q, worker.log), 90_000);

      if (short === 'r4')
        it('adds the DLQ messages by their x-death time, a rejected task with a record once, and leaves the DLQ as it was', async () => {
          const depth = async () => (await ch.checkQueue(DLQ)).messageCount;
          const before = Math.floor(Date.now() / 1000) * 1000;
          const send = (task: string) => a.enqueue(ZEnqueueRequest.parse({ task, queue: Q, fields: { args: '["no"]' } }));
          const quiet = await send('ct.reject_quiet'); // the letter only
          const loud = await send('ct.reject'); // a FAILURE record and a letter
          await until('two letters in the DLQ', async () => (await depth()) === 2, 30_000, worker.log);
          await until(
            'the FAILURE of the rejected task',
            async () => (await a.getResult(loud.id))?.status === 'FAILURE',
            30_000,
            worker.log,
          );
          const after = Date.now();
          const w = window();
          const h = await a.deadHistogram!({ ...w, queue: Q });
          // The two flaky records, the rejected task's record and the quiet letter: each task once,
          // each in the bucket of the time the failure list shows for it.
          const listed = (await a.listDead(ZDeadListQuery.parse({ queue: Q, limit: 50 }))).items;
          expect(listed.map((d) => d.id)).toEqual(expect.arrayContaining([quiet.id, loud.id]));
          expect(listed).toHaveLength(4);
          expect(h).toEqual({
            ...bucketTimes(
              listed.map((d) => Date.parse(d.diedAt!)),
              w,
            ),
            scannedNewest: null,
          });
          // The quiet one is a letter only: its time is RabbitMQ's x-death time (whole seconds).
          const died = Date.parse(listed.find((d) => d.id === quiet.id)!.diedAt!);
          expect(died % 1000).toBe(0);
          expect(died).toBeGreaterThanOrEqual(before);
          expect(died).toBeLessThanOrEqual(after);
          // A group of letters (grouped by RabbitMQ's reason) counts as the groups count it.
          const letterGroup = (await a.deadGroups({ queue: Q })).groups.find((g) => g.tasks.includes('ct.reject_quiet'));
          expect(letterGroup).toBeDefined();
          expect(sum((await a.deadHistogram!({ ...w, queue: Q, group: letterGroup!.fingerprint })).counts)).toBe(letterGroup!.count);
          expect(await depth()).toBe(2);
        }, 90_000);
      else
        it('with a deadLetterQueue refuses with the reason (the browse would count as a delivery on 3.x)', async () => {
          const b = createCeleryRabbitAdapter(config(DLQ));
          try {
            await expect(b.deadHistogram!({ ...window(), queue: Q })).rejects.toThrow(CELERY_V3_DLQ_REFUSAL);
          } finally {
            await b.close();
          }
        }, 30_000);
    });
  }
}
