// Replay and discard on a Celery app's dead-letter queue (deadLetterQueue) on real RabbitMQ 4.3
// with the real Celery 5.7 worker and producer: 300 tasks rejected without requeue (200 with a
// FAILURE record, 100 without), plus failures that are records only. Each action is checked in
// the broker (the DLQ's and the work queue's depths, with the worker stopped) and, at the end,
// by the worker running each replayed task exactly once more. Queues are this run's own (cdlq-).
// int-lane: owns rabbitmq; uses redis/9 (Celery workers on the shared vhost; results under a per-run prefix)
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery, ZEnqueueRequest, type DeadListQuery } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { BulkJob } from '@/lib/bulk/runner';
import { takeSnapshot, type BulkBackend } from '@/lib/bulk/snapshot';
import { PYTHON, ROOT } from '@/tests/support/potatoq-seeder';
import { newCeleryWorld, redisAvailable, startWorker, stopWorker, until } from '@/tests/brokers/celery/redis/support';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';

const URL4 = process.env.POTATOQ_TEST_RABBITMQ4_URL;
const redisUp = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const Q = `cdlq-work-${tag}`;
const DLQ = `cdlq-dead-${tag}`;
const FLAG_A = `cdlq-a-${tag}`;
const FLAG_B = `cdlq-b-${tag}`;
const FLAG_F = `cdlq-f-${tag}`;

if (!URL4 || !redisUp) {
  const line = '!!! RabbitMQ 4.3 (POTATOQ_TEST_RABBITMQ4_URL) or Redis is not configured: SKIPPING the Celery DLQ actions suite !!!';
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  it.skip('celery dead-letter queue actions', () => undefined);
} else {
  const w0 = newCeleryWorld(0, 9);
  const prefix = `cdlq${tag}`;
  const w = { ...w0, broker: URL4, env: { ...w0.env, CT_BROKER: URL4, CT_RESULT_PREFIX: prefix, CT_DLX: `${Q}:${DLQ}` } };
  const cfg = (id: string) => ({
    id,
    name: id,
    url: URL4,
    readOnly: false,
    options: { resultBackend: w.backend, resultKeyprefix: prefix, queues: [Q], deadLetterQueue: DLQ, inspectTimeoutMs: 500 },
  });
  const runs = (id: string) => {
    const f = path.join(w.out, `${id}.runs`);
    return existsSync(f) ? readFileSync(f, 'utf8').trim().split('\n').length : 0;
  };
  const send = async (task: string, count: number, arg: string, taskId?: string): Promise<string[]> => {
    const { stdout } = await promisify(execFile)(PYTHON, ['cdlq_send.py', Q, task, String(count), arg, ...(taskId ? [taskId] : [])], {
      cwd: path.join(ROOT, 'tests/py'),
      env: { ...process.env, ...w.env },
    });
    return JSON.parse(stdout) as string[];
  };
  const list = (q: Partial<DeadListQuery> = {}) => ZDeadListQuery.parse(q);
  /** Every id of the dead list with `q`, page by page (`limit` each). */
  const allIds = async (a: BrokerAdapter, q: Partial<DeadListQuery>, limit: number) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const p = await a.listDead(list({ ...q, limit, ...(cursor ? { cursor } : {}) }));
      ids.push(...p.items.map((d) => d.id));
      cursor = p.nextCursor ?? undefined;
    } while (cursor);
    return ids;
  };
  /** The bulk runner over this adapter, as the service's backend drives it. */
  const backendOf = (a: BrokerAdapter, q: Partial<DeadListQuery>): BulkBackend => ({
    listPage: async (cursor, limit) => {
      const p = await a.listDead(list({ ...q, limit, ...(cursor ? { cursor } : {}) }));
      return { ids: p.items.map((d) => d.id), nextCursor: p.nextCursor };
    },
    act: (ids) => a.replayDead(ids),
    actAll: (ids, pace) => a.replayDeadPaced!(ids, pace),
  });

  describe('replay and discard on a celery dead-letter queue (rabbitmq 4.3, real worker)', () => {
    let conn: amqp.ChannelModel;
    let ch: amqp.Channel;
    let a: BrokerAdapter;
    let b: BrokerAdapter;
    let worker: ReturnType<typeof startWorker> | null = null;
    let A: string[] = [];
    let B: string[] = [];
    const F: string[] = [];
    const depth = async (q: string) => (await ch.checkQueue(q)).messageCount;
    const depths = async () => ({ dlq: await depth(DLQ), work: await depth(Q) });
    const workerUp = async () => {
      worker = startWorker(w, [Q], `cdlq-${tag}`);
      await until('the worker to answer', async () => (await a.listWorkers()).some((x) => x.queues.includes(Q)), 60_000, worker.log);
    };

    beforeAll(async () => {
      conn = await amqp.connect(URL4);
      ch = await conn.createChannel();
      await ch.assertQueue(DLQ, { durable: true });
      await ch.assertExchange(Q, 'direct', { durable: true });
      await ch.assertQueue(Q, { durable: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': DLQ } });
      await ch.bindQueue(Q, Q, Q);
      a = createCeleryRabbitAdapter(cfg('cdlq-a'));
      b = createCeleryRabbitAdapter(cfg('cdlq-b'));
      await workerUp();
      A = await send('ct.reject_until', 200, FLAG_A);
      B = await send('ct.reject_until_quiet', 100, FLAG_B);
      for (let i = 0; i < 3; i++)
        F.push((await a.enqueue(ZEnqueueRequest.parse({ task: 'ct.flaky', queue: Q, fields: { args: JSON.stringify([FLAG_F]) } }))).id);
      await until('300 letters in the DLQ', async () => (await depth(DLQ)) === 300, 90_000, worker!.log);
      await until(
        'the FAILURE records',
        async () => (await a.getResult(F[2]!))?.status === 'FAILURE' && (await a.getResult(A[199]!))?.status === 'FAILURE',
        30_000,
      );
      // From here on the worker is stopped: every depth below is exact.
      await stopWorker(worker!.proc);
      worker = null;
      for (const f of [FLAG_A, FLAG_B, FLAG_F]) writeFileSync(path.join(w.out, f), '1');
    }, 180_000);
    afterAll(async () => {
      if (worker) await stopWorker(worker.proc);
      await a?.close();
      await b?.close();
      if (ch) {
        await ch.deleteQueue(Q).catch(() => undefined);
        await ch.deleteQueue(DLQ).catch(() => undefined);
        await ch.deleteExchange(Q).catch(() => undefined);
      }
      await conn?.close().catch(() => undefined);
      // This run's records (its own key prefix in the shared result-backend db).
      const r = new Redis(w.backend);
      for (const key of await r.keys(`${prefix}_*`)) await r.del(key);
      r.disconnect();
    }, 30_000);

    it('keeps what Celery and RabbitMQ put on a rejected message: x-death names the queue; send_task used the default exchange', async () => {
      const m = await ch.get(DLQ, { noAck: false });
      expect(m).not.toBe(false);
      if (m === false) return;
      ch.nack(m, false, true);
      const h = m.properties.headers as Record<string, unknown>;
      const death = (h['x-death'] as Array<Record<string, unknown>>)[0]!;
      // Celery 5.7 publishes to a direct queue through the default exchange (app/amqp.py
      // send_task_message: "convert to anon-exchange"), routing key = the queue's name.
      expect(death).toMatchObject({ queue: Q, reason: 'rejected', exchange: '', 'routing-keys': [Q], count: 1 });
      expect(h['x-first-death-queue']).toBe(Q);
      expect(m.properties.correlationId).toBe(h.id);
      expect(await depth(DLQ)).toBe(300);
    });

    it("groups letters by the record's exception or by RabbitMQ's reason, counted exactly across pages", async () => {
      const groups = (await a.deadGroups({})).groups;
      const ga = groups.find((g) => g.example.id && A.includes(g.example.id))!;
      const gb = groups.find((g) => g.example.id && B.includes(g.example.id))!;
      expect(ga.count).toBe(200);
      expect(ga.pattern).toMatch(/Reject/);
      expect(gb.count).toBe(100);
      expect(gb.pattern).toBe('Dead-lettered by RabbitMQ (rejected)');
      expect(gb.queues).toEqual([Q]);
      const inA = await allIds(a, { group: ga.fingerprint }, 37);
      expect(inA.sort()).toEqual([...A].sort());
      const snap = await takeSnapshot(backendOf(a, { group: gb.fingerprint }));
      expect(snap.ids.sort()).toEqual([...B].sort());
      // Each task once in the whole list (its record and its message are one dead letter).
      const every = await allIds(a, {}, 120);
      expect(new Set(every).size).toBe(every.length);
      expect(every.filter((id) => A.includes(id) || B.includes(id) || F.includes(id))).toHaveLength(303);
      expect(await depths()).toEqual({ dlq: 300, work: 0 });
    }, 60_000);

    it('replays one task from its message: the same message goes back to its queue, its record is removed', async () => {
      const detail = await a.getDead(A[0]!);
      expect(detail?.result?.status).toBe('FAILURE');
      expect(detail?.raw).toContain(FLAG_A);
      const r = await a.replayDead([A[0]!]);
      expect(r.succeeded.map((o) => o.id)).toEqual([A[0]]);
      expect(r.succeeded[0]!.message).toContain(`published again to ${Q}`);
      expect(await depths()).toEqual({ dlq: 299, work: 1 });
      expect(await a.getResult(A[0]!)).toBeNull();
      const m = await ch.get(Q, { noAck: false });
      if (m === false) throw new Error('the replayed message is not in its queue');
      ch.nack(m, false, true);
      expect(m.properties.headers?.id).toBe(A[0]);
      expect(m.properties.headers?.task).toBe('ct.reject_until');
      expect(m.properties.headers?.['x-death']).toBeUndefined();
      expect(m.content.toString()).toContain(FLAG_A);
      // Replaying it again finds nothing: not in the DLQ and no FAILURE record.
      const again = await a.replayDead([A[0]!]);
      expect(again.failed).toEqual([expect.objectContaining({ id: A[0], outcome: 'missing' })]);
      expect(await depths()).toEqual({ dlq: 299, work: 1 });
    }, 60_000);

    it('refuses while another console walks the DLQ, and loses nothing', async () => {
      const other = await amqp.connect(URL4);
      try {
        const och = await other.createChannel();
        await och.assertQueue(`potatoq-console.browsing.${DLQ}`, { exclusive: true, durable: false });
        const r = await a.replayDead([A[1]!]);
        expect(r.failed).toEqual([
          expect.objectContaining({ id: A[1], outcome: 'error', message: expect.stringMatching(/another console/) }),
        ]);
        const d = await a.discardDead([A[1]!]);
        expect(d.succeeded).toEqual([]);
      } finally {
        await other.close();
      }
      expect(await depths()).toEqual({ dlq: 299, work: 1 });
      expect((await a.getResult(A[1]!))?.status).toBe('FAILURE');
    }, 60_000);

    it('two consoles replaying the same tasks at once replay each exactly once', async () => {
      const ids = A.slice(2, 12);
      const [r1, r2] = await Promise.all([a.replayDead(ids), b.replayDead(ids)]);
      const done = [...r1.succeeded, ...r2.succeeded].map((o) => o.id).sort();
      expect(done).toEqual([...ids].sort());
      expect([...r1.failed, ...r2.failed].every((o) => o.outcome === 'missing')).toBe(true);
      expect(await depths()).toEqual({ dlq: 289, work: 11 });
    }, 60_000);

    it('discards a selection through the bulk runner, one walk per batch: exactly those messages and their records go', async () => {
      const ids = A.slice(12, 32);
      const backend: BulkBackend = { ...backendOf(a, {}), act: (batch) => a.discardDead(batch) };
      delete backend.actAll;
      const snapshot = { ids, capped: false, searchedNewest: null, at: new Date() };
      const job = new BulkJob({ brokerId: 'cdlq-a', action: 'discard', filter: {}, snapshot, backend, batchSize: 7 });
      job.start();
      await job.finished;
      const v = job.view(Infinity);
      expect(v.progress.succeeded).toBe(20);
      expect(v.failedOutcomes).toEqual([]);
      expect(await depths()).toEqual({ dlq: 269, work: 11 });
      for (const id of ids) expect(await a.getResult(id)).toBeNull();
      const left = await allIds(a, {}, 500);
      expect(left.filter((id) => ids.includes(id))).toEqual([]);
      expect(left.filter((id) => A.includes(id))).toHaveLength(169);
      // Discarding them again: gone from both places.
      const again = await a.discardDead(ids.slice(0, 2));
      expect(again.failed.map((o) => o.outcome)).toEqual(['missing', 'missing']);
    }, 60_000);

    it('replays a filtered part (one error group) through the paced bulk runner', async () => {
      const gb = (await a.deadGroups({})).groups.find((g) => B.includes(g.example.id))!;
      const backend = backendOf(a, { group: gb.fingerprint });
      const job = new BulkJob({
        brokerId: 'cdlq-a',
        action: 'replay',
        filter: { group: gb.fingerprint },
        snapshot: await takeSnapshot(backend),
        backend,
        rate: 400,
      });
      expect(job.total).toBe(100);
      job.start();
      await job.finished;
      const v = job.view(Infinity);
      expect(v.state).toBe('done');
      expect(v.progress.succeeded).toBe(100);
      expect(await depths()).toEqual({ dlq: 169, work: 111 });
    }, 60_000);

    it('replays all of the rest in one pass: the DLQ empties, records-only failures are sent from their records', async () => {
      const backend = backendOf(a, {});
      const snapshot = await takeSnapshot(backend);
      const mine = snapshot.ids.filter((id) => A.includes(id) || F.includes(id));
      expect(mine).toHaveLength(172);
      const job = new BulkJob({ brokerId: 'cdlq-a', action: 'replay', filter: {}, snapshot: { ...snapshot, ids: mine }, backend });
      job.start();
      await job.finished;
      const v = job.view(Infinity);
      expect(v.failedOutcomes).toEqual([]);
      expect(v.progress.succeeded).toBe(172);
      expect(await depths()).toEqual({ dlq: 0, work: 283 });
    }, 120_000);

    it('the worker runs each replayed task exactly once more, and a discarded one never again', async () => {
      await workerUp();
      const replayed = [...A.filter((id) => !A.slice(12, 32).includes(id)), ...B];
      await until(
        'every replayed task to run again',
        async () => replayed.every((id) => runs(id) >= 2) && (await depth(Q)) === 0,
        120_000,
        worker!.log,
      );
      await until('the flaky failures to succeed', async () => {
        for (const id of F) if ((await a.getResult(id))?.status !== 'SUCCESS') return false;
        return true;
      });
      await new Promise((r) => setTimeout(r, 2000)); // a duplicate would have run by now
      expect(replayed.filter((id) => runs(id) !== 2)).toEqual([]);
      expect(A.slice(12, 32).map(runs)).toEqual(Array(20).fill(1));
      for (const id of A.slice(0, 40)) if (!A.slice(12, 32).includes(id)) expect((await a.getResult(id))?.status).toBe('SUCCESS');
      expect(await depths()).toEqual({ dlq: 0, work: 0 });
    }, 180_000);

    it('refuses to replay a message whose task ran again since (its result is SUCCESS), and discards it leaving that result', async () => {
      const flag = `cdlq-c-${tag}`;
      const [id] = await send('ct.reject_until', 1, flag);
      await until(
        'its letter',
        async () => (await depth(DLQ)) === 1 && (await a.getResult(id!))?.status === 'FAILURE',
        30_000,
        worker!.log,
      );
      writeFileSync(path.join(w.out, flag), '1');
      await send('ct.reject_until', 1, flag, id); // the app sends it again itself, same id
      await until('the other run', async () => (await a.getResult(id!))?.status === 'SUCCESS', 30_000, worker!.log);
      const r = await a.replayDead([id!]);
      expect(r.failed).toEqual([expect.objectContaining({ id, outcome: 'conflict', message: expect.stringMatching(/SUCCESS/) })]);
      expect(await depths()).toEqual({ dlq: 1, work: 0 });
      const d = await a.discardDead([id!]);
      expect(d.succeeded.map((o) => o.id)).toEqual([id]);
      expect(await depths()).toEqual({ dlq: 0, work: 0 });
      expect((await a.getResult(id!))?.status).toBe('SUCCESS');
      await new Promise((res) => setTimeout(res, 1000));
      expect(runs(id!)).toBe(2);
    }, 90_000);
  });
}
