// The task family on potatoq's RabbitMQ broker (4.3, a per-run queue) with each result backend
// potatoq has (Redis database 7 under a per-run key prefix, a per-run PostgreSQL schema, a temp
// SQLite file), against the REAL potatoq 26.1a8: a real producer sends a chord whose middle
// part fails and a chain whose middle step fails; a real `potatoq worker -P solo` runs them. RabbitMQ hands a queued message only to a consumer that takes it,
// so the family is the dead letters (browsed) and what the result backend stores (results and
// the chord's counters); the console replays the failed part from its family. On 3.10 the same
// backend is read without browsing the DLQs.
// int-lane: owns rabbitmq; uses redis/7 (RabbitMQ as a whole, conservatively; results under a per-run prefix)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import type { RabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';
import { RABBITMQ_NO_FAMILY } from '@/lib/brokers/potatoq/rabbitmq/family';
import { V3_BROWSE_REFUSAL } from '@/lib/brokers/potatoq/rabbitmq/topology';
import type { PySeeder } from '../support/potatoq-seeder';
import { PYTHON } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';
import {
  newTag,
  potatoqUrl,
  PY_DIR,
  rabbitAdapter,
  rabbitVersion,
  RMQ3_MGMT,
  RMQ3_URL,
  RMQ4_MGMT,
  RMQ4_URL,
  spawnRabbitSeeder,
} from '../support/rabbitmq';
import { redisAvailable, redisDb } from '../brokers/celery/redis/support';
import { PG_URL, pgAvailable } from '../support/postgres';

const available = (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)) && (await redisAvailable()) && (await pgAvailable());
const v3 = available ? await rabbitVersion(RMQ3_URL, 'RabbitMQ 3.x', (m) => m === 3) : null;

/** Where potatoq keeps results and chords for this run: each backend apart from other runs. */
const BACKENDS: { label: string; url: (tag: string, dir: string) => string; options: (tag: string) => Record<string, unknown> }[] = [
  // Database 7 holds only keys under per-run prefixes (docs/systems/celery.md): nothing flushes it.
  { label: 'Redis', url: () => redisDb(7), options: (tag) => ({ prefix: tag }) },
  { label: 'PostgreSQL', url: () => PG_URL, options: (tag) => ({ schema: tag }) },
  { label: 'SQLite', url: (_, dir) => `sqlite:///${path.join(dir, 'results.db')}`, options: () => ({}) },
];

interface Sent {
  id: string;
  body: string;
}
type Msg = { task: string; group_index?: number; link?: { options: { task_id: string; link?: { options: { task_id: string } }[] } }[] };

for (const rb of BACKENDS)
  describe.skipIf(!available)(`task family on potatoq (RabbitMQ 4) with a ${rb.label} result backend, real worker`, () => {
    const tag = newTag();
    const Q = `fam${tag}`;
    const dir = path.join(os.tmpdir(), `fam-rmq-pq-${tag}`);
    const BACKEND = rb.url(tag, dir);
    const options = { managementUrl: RMQ4_MGMT, resultBackend: BACKEND, resultBackendOptions: rb.options(tag) };
    let env: NodeJS.ProcessEnv;
    let a: RabbitmqAdapter;
    let py: PySeeder;
    let worker: SoloWorker;
    let callback: string;
    let parts: { id: string; task: string; index: number }[];
    let chain: { first: string; failing: string; last: string };
    const until = <T>(what: string, fn: () => Promise<T | null | false | undefined>) =>
      waitFor(what, fn, 60_000, () => `worker log:\n${worker?.log ?? ''}`);
    const family = async (id: string, limit = 200): Promise<TaskFamily> => (await a.family!(id, { limit }))!;

    beforeAll(async () => {
      fs.mkdirSync(dir);
      env = {
        ...process.env,
        RT_BROKER: potatoqUrl(RMQ4_URL),
        FAM_RESULT_BACKEND: BACKEND,
        FAM_RESULT_OPTIONS: JSON.stringify(rb.options(tag)),
        FAM_CHAIN_FAILS: '1',
        FAM_OUT: dir,
        NO_COLOR: '1',
        PYTHONUNBUFFERED: '1',
      };
      py = spawnRabbitSeeder(RMQ4_URL, BACKEND, tag);
      await py.call('declare', { queue: Q });
      callback = (JSON.parse(execFileSync(PYTHON, ['fam_produce.py', Q], { cwd: PY_DIR, env }).toString()) as { callback: string })
        .callback;
      // The seeder browses the queue (4.x: each message goes back) to learn the ids the producer chose.
      const sent = (await py.call('messages', { queue: Q })) as Sent[];
      const msgs = sent.map((s) => ({ id: s.id, m: JSON.parse(s.body) as Msg }));
      parts = msgs
        .filter((x) => x.m.group_index !== undefined)
        .map((x) => ({ id: x.id, task: x.m.task, index: x.m.group_index! }))
        .sort((p, q) => p.index - q.index);
      const head = msgs.find((x) => x.m.link?.length)!;
      const step2 = head.m.link![0]!.options;
      chain = { first: head.id, failing: step2.task_id, last: step2.link![0]!.options.task_id };
      a = rabbitAdapter(RMQ4_URL, options);
      worker = new SoloWorker('fam_tasks', PY_DIR, env);
    }, 60_000);

    afterAll(async () => {
      await worker?.stop();
      await a?.close();
      await py?.call('cleanup').catch(() => undefined);
      await py?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('turns the family on, and reads no waiting message (RabbitMQ would have to take it)', async () => {
      expect([...parts].map((p) => p.task)).toEqual(['fam.add', 'fam.flaky', 'fam.add']);
      expect((await a.capabilities()).family).toEqual({ on: true });
      expect(await a.family!(parts[1]!.id, { limit: 10 })).toBeNull();
    });

    it('shows the dead part, the chord 3/3 done with 1 failed from the backend, and the callback it blocks', async () => {
      worker.start([Q]);
      const flaky = parts[1]!.id;
      await until('the flaky part to die', async () => (await a.getDead(flaky)) !== null);
      await until('the chord callback to fail', async () => (await a.getResult(callback))?.status === 'FAILURE');
      const f = await family(flaky);
      expect(f.self).toMatchObject({ id: flaky, status: 'dead', link: 'dead', task: 'fam.flaky' });
      const g = f.groups.find((x) => x.kind === 'chord')!;
      expect([g.total, g.done, g.failed]).toEqual([3, 3, 1]);
      expect(g.members).toContain(flaky);
      expect(g.callback).toMatchObject({ id: callback, task: 'fam.collect', status: 'failed' });
      expect(f.blocks).toHaveLength(1);
      expect(f.blocks[0]).toMatchObject({ by: flaky, waiting: { id: callback, status: 'failed', state: 'FAILURE' } });
      expect(f.blocks[0]!.why).toMatch(/ChordError/);
      expect(f.unseen.join(' ')).toMatch(/RabbitMQ lets a queued message be read only by taking it off its queue/);
      // A finished part is its stored result: no group id, so it stands alone.
      const done = await family(parts[0]!.id);
      expect(done.self).toMatchObject({ status: 'succeeded', task: 'fam.add' });
      expect(done.groups).toEqual([]);
    });

    it('reaches the failed chain step from the chain head, and the step it blocks', async () => {
      await until('the failing chain step to die', async () => (await a.getDead(chain.failing)) !== null);
      await until('the last chain step to fail', async () => (await a.getResult(chain.last))?.status === 'FAILURE');
      const f = await family(chain.failing);
      expect(f.root).toMatchObject({ id: chain.first, status: 'succeeded' });
      expect(f.parent?.id).toBe(chain.first);
      expect(f.children.map((c) => c.id)).toEqual([chain.last]);
      expect(f.blocks).toEqual([
        expect.objectContaining({ by: chain.failing, waiting: expect.objectContaining({ id: chain.last, status: 'failed' }) }),
      ]);
      // From the head (only its result is left), the dead letter naming it as root is found.
      const head = await family(chain.first);
      expect(head.self.status).toBe('succeeded');
      expect([...head.members.map((m) => m.id)].sort()).toEqual([chain.first, chain.failing, chain.last].sort());
    });

    it('replays the failed part from its family: it succeeds, the chord keeps its error', async () => {
      const flaky = parts[1]!.id;
      fs.writeFileSync(path.join(dir, `${flaky}.ok`), '');
      const r = await a.replayDead([flaky]);
      expect(r.failed).toEqual([]);
      await until('the replayed part to succeed', async () => (await a.getResult(flaky))?.status === 'SUCCESS');
      const f = await family(flaky);
      expect(f.self).toMatchObject({ status: 'succeeded', link: null });
      expect(f.blocks).toEqual([]);
      expect((await a.getResult(callback))?.status).toBe('FAILURE');
    });

    it('answers null for an id no letter, result or member has', async () => {
      expect(await a.family!(`${tag}-nobody`, { limit: 10 })).toBeNull();
    });

    it.skipIf(!v3)('on RabbitMQ 3.x reads only the result backend, and is off with neither', async () => {
      const old = rabbitAdapter(RMQ3_URL, { ...options, managementUrl: RMQ3_MGMT });
      const bare = rabbitAdapter(RMQ3_URL, { managementUrl: RMQ3_MGMT });
      try {
        expect((await old.capabilities()).family.on).toBe(true);
        const f = (await old.family!(callback, { limit: 10 }))!;
        expect(f.self).toMatchObject({ id: callback, status: 'failed', task: 'fam.collect' });
        expect(f.unseen.join(' ')).toContain(V3_BROWSE_REFUSAL);
        expect((await bare.capabilities()).family).toEqual({ on: false, why: RABBITMQ_NO_FAMILY });
      } finally {
        await old.close();
        await bare.close();
      }
    });
  });
