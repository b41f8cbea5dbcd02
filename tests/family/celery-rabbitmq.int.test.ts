// The task family on Celery 5.7 with a RabbitMQ broker (4.3, and 3.10 where configured) and a
// Redis result backend, against a REAL `celery worker`: a chord whose middle part fails (one part
// held on a queue no worker takes), a group and a chain. RabbitMQ hands a queued message only to
// a consumer that takes it, so the family is what the result backend stores, and it says so.
// int-lane: owns rabbitmq; uses redis/7 (Celery workers on the shared vhost; results under per-run prefixes)
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { spawnCeleryWorker } from '@/tests/support/celery-worker';
import { dropKeysAt } from '@/tests/support/redis';
import { redisAvailable, redisDb, stopWorker, until } from '../brokers/celery/redis/support';

const SERVERS = [
  { label: 'rabbitmq 4.3', url: process.env.POTATOQ_TEST_RABBITMQ4_URL, mgmt: process.env.POTATOQ_TEST_RABBITMQ4_MGMT },
  { label: 'rabbitmq 3.10', url: process.env.POTATOQ_TEST_RABBITMQ3_URL, mgmt: process.env.POTATOQ_TEST_RABBITMQ3_MGMT },
];
const redisUp = await redisAvailable();
// Database 7 holds only keys under per-run prefixes (docs/systems/celery.md): nothing flushes it.
const BACKEND = redisDb(7);

async function deleteQueue(mgmt: string, amqpUrl: string, queue: string): Promise<void> {
  const u = new URL(amqpUrl);
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  await fetch(`${mgmt}/api/queues/%2F/${encodeURIComponent(queue)}`, {
    method: 'DELETE',
    headers: { authorization: `Basic ${auth}` },
  }).catch(() => undefined);
}

for (const server of SERVERS) {
  if (!server.url || !server.mgmt || !redisUp) {
    const line = `!!! ${server.label} is not configured (POTATOQ_TEST_RABBITMQ*_URL/_MGMT) or Redis is down: SKIPPING its family suite !!!`;
    if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
    console.warn(line);
    it.skip(`celery family on ${server.label}`, () => undefined);
    continue;
  }
  const url = server.url;
  const mgmt = server.mgmt;
  describe(`task family on Celery (${server.label}), real worker`, () => {
    const P = `famrmq${randomBytes(4).toString('hex')}`;
    const RP = `${P}:`;
    const Q = `${P}-work`;
    const HELD = `${P}-held`;
    const out = mkdtempSync(path.join(os.tmpdir(), 'fam-rmq-'));
    const env = { ...process.env, CT_BROKER: url, CT_BACKEND: BACKEND, CT_RESULT_PREFIX: RP, FAM_OUT: out, PYTHONUNBUFFERED: '1' };
    let a: BrokerAdapter;
    let worker: { proc: ChildProcess; log: () => string };
    let ids: { chord: { callback: string; parts: string[]; group: string }; group: { id: string; parts: string[] }; chain: string[] };
    const status = async (id: string) => (await a.getResult(id))?.status ?? null;

    beforeAll(async () => {
      ids = JSON.parse(
        execFileSync(path.resolve(__dirname, '../../.venv/bin/python'), ['fam_celery_send.py', Q, HELD], {
          cwd: path.resolve(__dirname, '../py'),
          env,
        }).toString(),
      ) as typeof ids;
      a = createCeleryRabbitAdapter({
        id: 'fam-rmq',
        name: 'fam-rmq',
        url,
        readOnly: false,
        options: { resultBackend: BACKEND, resultKeyprefix: RP, managementUrl: mgmt, inspectTimeoutMs: 1000 },
      });
      worker = spawnCeleryWorker(env, [Q], P, ['-P', 'solo'], 'fam_celery_app');
      await until('the flaky part to fail', async () => (await status(ids.chord.parts[1]!)) === 'FAILURE', 60_000, worker.log);
      await until('the chain to finish', async () => (await status(ids.chain[2]!)) === 'SUCCESS', 60_000, worker.log);
    }, 120_000);
    afterAll(async () => {
      if (worker) await stopWorker(worker.proc);
      await a?.close();
      await dropKeysAt(BACKEND, P);
      for (const q of [Q, HELD]) await deleteQueue(mgmt, url, q);
      rmSync(out, { recursive: true, force: true });
    }, 30_000);

    it("reads the failed part's chord from the backend: 2 done, 1 failed, and says what RabbitMQ hides", async () => {
      const f = (await a.family!(ids.chord.parts[1]!, { limit: 100 }))!;
      expect(f.self).toMatchObject({ status: 'failed', link: 'dead' });
      expect(f.groups[0]).toMatchObject({ id: ids.chord.group, kind: 'chord', done: 2, failed: 1 });
      expect(f.unseen.join(' ')).toMatch(/RabbitMQ lets a queued message be read only by taking it/);
      // The held part waits in RabbitMQ: no stored result, no message read, so no family.
      expect(await a.family!(ids.chord.parts[2]!, { limit: 100 })).toBeNull();
    });

    it('follows the finished chain through its stored children, and shows the group part', async () => {
      const f = (await a.family!(ids.chain[2]!, { limit: 100 }))!;
      expect(f.members.map((m) => m.id)).toEqual(ids.chain);
      expect(f.root?.id).toBe(ids.chain[0]);
      const g = (await a.family!(ids.group.parts[1]!, { limit: 100 }))!;
      expect(g.groups[0]).toMatchObject({ id: ids.group.id, kind: 'group' });
    });

    it('replays the failed part; the worker runs it', async () => {
      const flaky = ids.chord.parts[1]!;
      writeFileSync(path.join(out, `${flaky}.ok`), '');
      expect((await a.replayDead([flaky])).failed).toEqual([]);
      await until('the replayed part to succeed', async () => (await status(flaky)) === 'SUCCESS', 60_000, worker.log);
      expect((await a.family!(flaky, { limit: 100 }))!.self.status).toBe('succeeded');
    });
  });
}
