// A Celery app's own dead-letter queue (option deadLetterQueue) on real RabbitMQ 4.3 with the
// real Celery 5.7 worker: a task rejected with requeue=False dead-letters into it (the queue's
// x-dead-letter-exchange); the console shows it with the FAILURE records and leaves it there.
// On RabbitMQ 3.10 the browse is refused with its reason. Queues are this run's own.
// int-lane: owns rabbitmq; uses redis/9 (Celery workers on the shared vhost; results under a per-run prefix)
import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery, ZEnqueueRequest } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { newCeleryWorld, redisAvailable, startWorker, stopWorker, until } from '@/tests/brokers/celery/redis/support';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';
import { CELERY_V3_DLQ_REFUSAL } from '@/lib/brokers/celery/rabbitmq/dlq';

const URL4 = process.env.POTATOQ_TEST_RABBITMQ4_URL;
const URL3 = process.env.POTATOQ_TEST_RABBITMQ3_URL;
const redisUp = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const Q = `ct-dlx-work-${tag}`;
const DLQ = `ct-dlx-dead-${tag}`;

const page0Window = (p: { window?: string }) => p.window;
const cfg = (url: string, backend: string, prefix: string) => ({
  id: 'celery-dlq',
  name: 'celery-dlq',
  url,
  readOnly: false,
  options: { resultBackend: backend, resultKeyprefix: prefix, queues: [Q], deadLetterQueue: DLQ, inspectTimeoutMs: 1000 },
});

if (!URL4 || !URL3 || !redisUp) {
  const line = '!!! RabbitMQ 3.10/4.3 (POTATOQ_TEST_RABBITMQ*_URL) or Redis is not configured: SKIPPING the Celery DLQ suite !!!';
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  it.skip('celery dead-letter queue', () => undefined);
} else {
  const w0 = newCeleryWorld(0, 9);
  const prefix = `ctdlq${tag}`;
  const w = { ...w0, broker: URL4, env: { ...w0.env, CT_BROKER: URL4, CT_RESULT_PREFIX: prefix, CT_DLX: `${Q}:${DLQ}` } };

  describe('celery dead-letter queue on rabbitmq 4.3', () => {
    let conn: amqp.ChannelModel;
    let ch: amqp.Channel;
    let a: BrokerAdapter;
    let worker: ReturnType<typeof startWorker>;
    const depth = async () => (await ch.checkQueue(DLQ)).messageCount;

    beforeAll(async () => {
      conn = await amqp.connect(URL4);
      ch = await conn.createChannel();
      await ch.assertQueue(DLQ, { durable: true });
      // Declared as the worker declares it (CT_DLX in rt_celery_app): same exchange, same arguments.
      await ch.assertExchange(Q, 'direct', { durable: true });
      await ch.assertQueue(Q, { durable: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': DLQ } });
      await ch.bindQueue(Q, Q, Q);
      a = createCeleryRabbitAdapter(cfg(URL4, w.backend, prefix));
      worker = startWorker(w, [Q], `ct-${Q}`);
      await until('the worker to answer', async () => (await a.listWorkers()).some((x) => x.queues.includes(Q)), 60_000, worker.log);
    }, 90_000);
    afterAll(async () => {
      if (worker) await stopWorker(worker.proc);
      await a?.close();
      if (ch) {
        await ch.deleteQueue(Q).catch(() => undefined);
        await ch.deleteQueue(DLQ).catch(() => undefined);
        await ch.deleteExchange(Q).catch(() => undefined);
      }
      await conn?.close().catch(() => undefined);
    }, 30_000);

    it('shows rejected tasks from the DLQ next to FAILURE records, each id once, and every letter stays in the DLQ', async () => {
      const send = (task: string, args: unknown[]) =>
        a.enqueue(ZEnqueueRequest.parse({ task, queue: Q, fields: { args: JSON.stringify(args) } }));
      const r1 = await send('ct.reject', ['no thanks']);
      const r2 = await send('ct.reject_quiet', ['nope']); // no FAILURE record: the letter only
      const f = await send('ct.flaky', [`never-${tag}`]);
      await until('two letters in the DLQ', async () => (await depth()) === 2, 30_000, worker.log);
      await until('FAILURE', async () => (await a.getResult(f.id))?.status === 'FAILURE', 30_000, worker.log);

      for (let round = 0; round < 2; round++) {
        const page = await a.listDead(ZDeadListQuery.parse({}));
        const ids = page.items.map((d) => d.id);
        expect(ids).toEqual(expect.arrayContaining([r1.id, r2.id, f.id]));
        expect(new Set(ids).size).toBe(ids.length);
        const letter = page.items.find((d) => d.id === r2.id)!;
        expect(letter.queue).toBe(Q);
        expect(letter.task).toBe('ct.reject_quiet');
        expect(await depth()).toBe(2); // browsed, not taken
      }
      const detail = await a.getDead(r2.id);
      expect(detail?.reason).toContain('rejected');
      expect(detail?.raw).toContain('nope');
      // Read as Celery reads it, in Celery's words; an edited replay is off for a letter in the DLQ.
      expect(detail?.payload).toMatchObject({ format: 'celery', task: 'ct.reject_quiet', foreign: null });
      expect(JSON.stringify(detail?.payload)).not.toMatch(/potatoq/i);
      expect(detail?.unavailable?.replayEdited).toContain('replay it without edits');
      expect(await depth()).toBe(2);
      // Paging over both sources: one at a time, each once.
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const p = await a.listDead(ZDeadListQuery.parse({ limit: 1, ...(cursor ? { cursor } : {}) }));
        seen.push(...p.items.map((d) => d.id));
        cursor = p.nextCursor ?? undefined;
      } while (cursor);
      expect(seen.filter((id) => [r1.id, r2.id, f.id].includes(id)).sort()).toEqual([r1.id, r2.id, f.id].sort());
      expect(new Set(seen).size).toBe(seen.length);
      expect(page0Window(await a.listDead(ZDeadListQuery.parse({})))).toBeUndefined();
      // A DLQ deeper than one read: the list says what it covers.
      const narrow = createCeleryRabbitAdapter({
        ...cfg(URL4, w.backend, prefix),
        options: { ...cfg(URL4, w.backend, prefix).options, deadBrowseLimit: 1 },
      });
      try {
        expect(page0Window(await narrow.listDead(ZDeadListQuery.parse({})))).toBe(
          `${DLQ} holds 2 letters: a read takes the first 1 letter of a DLQ in queue order (deadBrowseLimit), so this list is the newest of those, not of all. ` +
            'RabbitMQ 4 puts the letters a read took behind the others, so the next refresh reads the next 1. Replay all… walks every letter of the DLQ.',
        );
      } finally {
        await narrow.close();
      }
      expect(await depth()).toBe(2);
      const o = await a.overview();
      expect(o.queues.map((q) => q.name)).not.toContain(DLQ);
      // FAILURE records and DLQ messages overlap (r1 is in both): the total is the larger, a lower
      // bound, shown as such; the list above has each task once.
      expect(o.totals.dead).toBeGreaterThanOrEqual(2);
      expect(o.totalsCapped?.dead).toEqual({ atLeast: o.totals.dead, estimate: null });
      expect(o.totals.dead).toBeLessThanOrEqual(seen.length);
    }, 90_000);

    it('refuses to browse while another console holds the browse lock, and loses nothing', async () => {
      const other = await amqp.connect(URL4);
      try {
        const och = await other.createChannel();
        await och.assertQueue(`potatoq-console.browsing.${DLQ}`, { exclusive: true, durable: false });
        await expect(a.listDead(ZDeadListQuery.parse({}))).rejects.toThrow(/another console.* has been browsing/);
      } finally {
        await other.close();
      }
      expect(await depth()).toBe(2);
      expect((await a.listDead(ZDeadListQuery.parse({}))).items.length).toBeGreaterThanOrEqual(3);
    }, 30_000);
  });

  describe('celery dead-letter queue on rabbitmq 3.10', () => {
    it('refuses the browse with its reason, in the capabilities and on listing', async () => {
      const a = createCeleryRabbitAdapter(cfg(URL3, w.backend, prefix));
      try {
        const caps = await a.capabilities();
        expect(caps.browseDead).toEqual({ on: false, why: CELERY_V3_DLQ_REFUSAL });
        await expect(a.listDead(ZDeadListQuery.parse({}))).rejects.toThrow(/RabbitMQ 3\.x/);
      } finally {
        await a.close();
      }
    }, 30_000);
  });
}
