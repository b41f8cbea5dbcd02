// Edit and replay of Celery FAILURE records (result_extended) with the REAL Celery 5.7 worker, on
// Redis (broker and results in db 2, result keys under a prefix of their own) and on RabbitMQ 4.3
// (results in Redis db 2): the worker fails `er.when` called with a text `at`; the console sends it
// again as send_task would, with a typed datetime `at`, a Decimal argument and a new queue; a
// worker consuming only the new queue runs it once, under the same id, with those types.
// int-lane: owns rabbitmq redis/2 (Celery workers on the shared vhost and on db 2)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';
import { newCeleryWorld, redisAvailable, redisDb, startWorker, stopWorker, until } from '@/tests/brokers/celery/redis/support';
import { connectRedis } from '@/lib/transports/redis/server';
import { ZDeadListQuery, type TypedValue } from '@/lib/brokers/schema';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { rabbitVersion, RMQ4_MGMT, RMQ4_URL } from '@/tests/support/rabbitmq';

const AT = '2026-12-02T10:30:00+01:00';
const EDIT = (queue: string) => ({
  args: [{ t: 'decimal', v: '2.50' } as TypedValue],
  kwargs: [['at', { t: 'datetime', v: AT, aware: true, epochMs: null }]] as Array<[string, TypedValue]>,
  queue,
});
const BAD = { kwargs: [['at', { t: 'datetime', v: 'tomorrow 9am', aware: false, epochMs: null }]] as Array<[string, TypedValue]> };
const SET = { kwargs: [['at', { t: 'set', items: [{ t: 'int', v: '1' }] }]] as Array<[string, TypedValue]> };

const redisUp = await redisAvailable();
const targets = [
  { label: 'Redis (db 2)', up: redisUp, broker: redisDb(2), make: (c: StoreConfig) => createCeleryRedisAdapter(c) },
  {
    label: 'RabbitMQ 4.3',
    up: redisUp && Boolean(await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)),
    broker: RMQ4_URL,
    make: (c: StoreConfig) => createCeleryRabbitAdapter({ ...c, options: { ...c.options, managementUrl: RMQ4_MGMT } }),
  },
];

for (const t of targets) {
  describe.skipIf(!t.up)(`edit and replay: Celery on ${t.label} with its real worker`, () => {
    const tag = randomBytes(4).toString('hex');
    const from = `er-${tag}-from`;
    const to = `er-${tag}-to`;
    const prefix = `er-${tag}-`;
    const w = newCeleryWorld(2, 2);
    w.broker = t.broker;
    w.env = { ...w.env, CT_BROKER: t.broker, CT_RESULT_PREFIX: prefix };
    let a: BrokerAdapter;
    let worker: ReturnType<typeof startWorker> | null = null;
    const runs = (id: string) => {
      const f = path.join(w.out, `${id}.runs`);
      return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim().split('\n') : [];
    };
    const seen = (id: string) =>
      JSON.parse(fs.readFileSync(path.join(w.out, `${id}.json`), 'utf8')) as { args: string[][]; kwargs: Record<string, string[]> };
    const dead = async () => (await a.listDead(ZDeadListQuery.parse({ limit: 100 }))).items.map((d) => d.id);

    beforeAll(() => {
      a = t.make({
        id: 'er-celery',
        name: 'er-celery',
        url: t.broker,
        readOnly: false,
        options: { resultBackend: w.backend, resultKeyprefix: prefix },
      });
    });
    afterAll(async () => {
      if (worker) await stopWorker(worker.proc);
      await a?.close();
      const c = connectRedis(redisDb(2));
      const keys = [...(await c.keys(`${prefix}*`)), ...(await c.keys(`*er-${tag}-*`))];
      if (keys.length) await c.del(...keys);
      c.disconnect();
      if (t.broker.startsWith('amqp')) {
        const amqp = await import('amqplib');
        const conn = await amqp.connect(RMQ4_URL);
        const ch = await conn.createChannel();
        for (const q of [from, to]) await ch.deleteQueue(q).catch(() => undefined);
        await conn.close();
      }
      fs.rmSync(w.out, { recursive: true, force: true });
    }, 30_000);

    it('sends the failure again under its id with an edited typed datetime kwarg, a Decimal and a new queue; the worker gets those types, once', async () => {
      worker = startWorker(w, [from], `er-${tag}-a`);
      const out = execFileSync(
        path.join(ROOT, '.venv/bin/celery'),
        ['-A', 'rt_celery_app', 'call', 'er.when', '--args', '[1]', '--kwargs', '{"at": "not yet"}', '--queue', from],
        { cwd: path.join(ROOT, 'tests/py'), env: { ...process.env, ...w.env } },
      ).toString();
      const id = out.trim().split(/\s+/).pop()!;
      await until('the FAILURE record', async () => (await dead()).includes(id), 60_000, worker.log);
      await stopWorker(worker.proc);
      worker = startWorker(w, [to], `er-${tag}-b`);

      // Bad edits are refused naming the field, and change nothing.
      for (const [edit, field, text] of [
        [BAD, 'kwargs.at', 'date-time'],
        [SET, 'kwargs.at', 'kombu'],
      ] as const) {
        const e = await a.replayEdited!(id, edit).catch((x: unknown) => x);
        expect(e).toMatchObject({ code: 'InvalidInput', fields: { [field]: expect.stringContaining(text) } });
      }
      expect(await dead()).toContain(id);

      const p = await a.previewReplayEdited!(id, EDIT(to));
      expect(p).toMatchObject({ sameId: true, newId: id });
      expect(p.after).toContain(`"routing_key": "${to}"`);
      expect(p.before).toContain(`"routing_key": "${from}"`);
      const r = await a.replayEdited!(id, EDIT(to));
      expect(r.outcome).toMatchObject({ id, outcome: 'ok' });

      await until('the edited run', async () => runs(id).length > 0, 60_000, worker.log);
      expect(runs(id)).toEqual([to]);
      const got = seen(id);
      expect(got.args).toEqual([['Decimal', "Decimal('2.50')"]]);
      expect(got.kwargs.at).toEqual([
        'datetime',
        'datetime.datetime(2026, 12, 2, 10, 30, tzinfo=datetime.timezone(datetime.timedelta(seconds=3600)))',
      ]);
      await until('the SUCCESS record', async () => (await a.getResult(id))?.status === 'SUCCESS', 20_000, worker.log);
      expect(await dead()).not.toContain(id);
      await new Promise((res) => setTimeout(res, 1500));
      expect(runs(id)).toHaveLength(1);
      expect(await a.replayEdited!(id, EDIT(to)).catch((e: unknown) => e)).toMatchObject({ code: 'NotFound' });
    }, 180_000);
  });
}
