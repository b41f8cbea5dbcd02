// Edit and replay with the REAL potatoq 26.1a8 worker on Redis (db 2, a key prefix of its own)
// and on RabbitMQ 4.3 (RabbitMQ 3.10 refuses, keeping the letter): the worker dead-letters
// `er.when` called with a text `at`; the console replays it with a typed datetime `at`, a Decimal
// argument and a new queue; a worker consuming only the new queue runs it once with those types.
// int-lane: owns rabbitmq; uses redis/2 (RabbitMQ as a whole, conservatively; a key prefix of its own)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { ZDeadListQuery, type TypedValue } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { POTATOQ } from '@/tests/support/potatoq-seeder';
import { PY_DIR } from '@/tests/support/redis';
import {
  redisAvailable,
  REDIS_URL,
  rabbitAdapter,
  rabbitVersion,
  RMQ3_URL,
  RMQ4_MGMT,
  RMQ4_URL,
  potatoqUrl,
} from '@/tests/support/rabbitmq';
import { SoloWorker, until } from '@/tests/support/solo-worker';
import { connectRedis } from '@/lib/transports/redis/server';

const REDIS_DB2 = REDIS_URL.replace(/\/\d*$/, '/2');
const AT = '2026-12-02T10:30:00+01:00';
const EDIT = (queue: string) => ({
  args: [{ t: 'decimal', v: '2.50' } as TypedValue],
  kwargs: [['at', { t: 'datetime', v: AT, aware: true, epochMs: null }]] as Array<[string, TypedValue]>,
  queue,
});
const BAD = { kwargs: [['at', { t: 'datetime', v: 'tomorrow 9am', aware: false, epochMs: null }]] as Array<[string, TypedValue]> };

interface Target {
  label: string;
  up: () => Promise<boolean>;
  broker: string;
  prefix?: string;
  adapter: () => BrokerAdapter;
}

const tag = randomBytes(4).toString('hex');
const targets: Target[] = [
  {
    label: 'potatoq on Redis (db 2)',
    up: redisAvailable,
    broker: REDIS_DB2,
    prefix: `er-${tag}`,
    adapter: () =>
      createRedisAdapter({ id: 'er-redis', name: 'er-redis', url: REDIS_DB2, readOnly: false, options: { prefix: `er-${tag}` } }),
  },
  {
    label: 'potatoq on RabbitMQ 4.3',
    up: async () => Boolean(await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)),
    broker: potatoqUrl(RMQ4_URL),
    adapter: () => rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT }),
  },
];

for (const t of targets) {
  const up = await t.up();
  describe.skipIf(!up)(`edit and replay: ${t.label} with its real worker`, () => {
    const from = `er-${tag}-from`;
    const to = `er-${tag}-to`;
    let dir = '';
    let env: NodeJS.ProcessEnv = { ...process.env };
    let a: BrokerAdapter;
    let worker: SoloWorker;
    const runs = (id: string) => {
      const f = path.join(dir, `${id}.runs`);
      return fs.existsSync(f)
        ? fs
            .readFileSync(f, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { args: string[][]; kwargs: Record<string, string[]> })
        : [];
    };
    const dead = async () => (await a.listDead(ZDeadListQuery.parse({ queue: from, limit: 100 }))).items.map((d) => d.id);

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'er-'));
      env = { ...process.env, ER_BROKER: t.broker, ER_OUT: dir, ...(t.prefix ? { ER_PREFIX: t.prefix } : {}), PYTHONUNBUFFERED: '1' };
      a = t.adapter();
      worker = new SoloWorker('er_tasks', PY_DIR, env);
    });
    afterAll(async () => {
      await worker?.stop();
      await a?.close();
      if (t.prefix) {
        const c = connectRedis(REDIS_DB2);
        const keys = await c.keys(`${t.prefix}:*`);
        if (keys.length) await c.del(...keys);
        c.disconnect();
      } else {
        // The queues this suite's workers declared (and their DLQs).
        const amqp = await import('amqplib');
        const conn = await amqp.connect(RMQ4_URL);
        const ch = await conn.createChannel();
        for (const q of [from, `${from}.dlq`, to, `${to}.dlq`]) await ch.deleteQueue(q).catch(() => undefined);
        await conn.close();
      }
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    it('replays the worker-made letter with an edited typed datetime kwarg, a Decimal and a new queue; the worker gets those types, once', async () => {
      // A real dead letter: the worker on `from` runs er.when with a text `at`, which raises.
      worker.start([from]);
      const id = execFileSync(
        POTATOQ,
        ['-A', 'er_tasks', '--no-color', '--no-emoji', 'call', 'er.when', '-Q', from, '-a', '[1]', '-k', '{"at": "not yet"}'],
        { cwd: PY_DIR, env },
      )
        .toString()
        .trim()
        .split(/\s+/)
        .pop()!;
      await until(
        'the letter',
        async () => (await dead()).includes(id),
        60_000,
        () => worker.log,
      );
      await worker.stop();
      // Only the new queue is consumed from now on (its worker declares it on RabbitMQ).
      worker.start([to]);
      await until(
        'the new queue',
        async () => (await a.overview()).queues.some((q) => q.name === to) || Boolean(t.prefix),
        30_000,
        () => worker.log,
      );

      // A bad edit is refused naming the field, and changes nothing.
      const bad = await a.replayEdited!(id, BAD).catch((e: unknown) => e);
      expect(bad).toMatchObject({ code: 'InvalidInput', fields: { 'kwargs.at': expect.stringContaining('date-time') } });
      expect(await dead()).toContain(id);

      const p = await a.previewReplayEdited!(id, EDIT(to));
      expect(p.before).toContain('"not yet"');
      expect(p.after).toContain(AT);
      expect(p.after).toContain(`"queue":"${to}"`);
      const r = await a.replayEdited!(id, EDIT(to));
      expect(r.outcome).toMatchObject({ id, outcome: 'ok' });
      expect(r).toMatchObject({ sameId: true, newId: id });

      const got = await until(
        'the edited run',
        async () => runs(id)[0],
        60_000,
        () => worker.log,
      );
      expect(got.args).toEqual([['Decimal', "Decimal('2.50')"]]);
      expect(got.kwargs.at?.[0]).toBe('datetime');
      expect(got.kwargs.at?.[1]).toContain(
        'datetime.datetime(2026, 12, 2, 10, 30, tzinfo=datetime.timezone(datetime.timedelta(seconds=3600)))',
      );
      expect(await dead()).not.toContain(id);
      // Exactly once: no second run, and a second replay finds no letter.
      await new Promise((res) => setTimeout(res, 1500));
      expect(runs(id)).toHaveLength(1);
      expect(await a.replayEdited!(id, EDIT(to)).catch((e: unknown) => e)).toMatchObject({ code: 'NotFound' });
    }, 180_000);
  });
}

const v3 = await rabbitVersion(RMQ3_URL, 'RabbitMQ 3.10', (m) => m < 4);
describe.skipIf(!v3)('edit and replay: potatoq on RabbitMQ 3.10', () => {
  it('refuses with the reason (browsing would drop the letters) and touches no letter', async () => {
    const a = rabbitAdapter(RMQ3_URL, {});
    try {
      const caps = await a.capabilities();
      expect(caps.replay.on).toBe(false);
      for (const call of [a.previewReplayEdited!('x', EDIT('er-x')), a.replayEdited!('x', EDIT('er-x'))])
        expect(await call.catch((e: unknown) => e)).toMatchObject({
          code: 'Unsupported',
          message: expect.stringContaining('x-delivery-limit'),
        });
    } finally {
      await a.close();
    }
  });
});
