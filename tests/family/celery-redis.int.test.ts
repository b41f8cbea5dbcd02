// The task family on Celery 5.7 with a Redis broker and result backend, against a REAL
// `celery worker`: a chord with one failing part and one part held on a queue no worker takes
// yet, a group and a chain. The console reads each family from its members, sees the failed
// part and the callback it blocks, replays the part, and checks in the backend what Celery
// does with the chord afterwards. Keys live under this file's own prefixes on db 7.
// int-lane: uses redis/7 (every key under its own prefixes)
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { connectRedis } from '@/lib/transports/redis/server';
import { spawnCeleryWorker } from '@/tests/support/celery-worker';
import { dropKeysAt, newPrefix } from '@/tests/support/redis';
import { redisAvailable, redisDb, stopWorker, until } from '../brokers/celery/redis/support';

const up = await redisAvailable();
// Database 7 holds only keys under per-run prefixes (docs/systems/celery.md): nothing flushes it.
const URL = redisDb(7);
const P = newPrefix();
const BP = `${P}b:`;
const RP = `${P}r:`;
const Q = `${P}-work`;
const HELD = `${P}-held`;
const out = mkdtempSync(path.join(os.tmpdir(), 'fam-celery-'));
const env = {
  ...process.env,
  CT_BROKER: URL,
  CT_BACKEND: URL,
  CT_BROKER_PREFIX: BP,
  CT_RESULT_PREFIX: RP,
  FAM_OUT: out,
  PYTHONUNBUFFERED: '1',
};
let a: BrokerAdapter;
let worker: { proc: ChildProcess; log: () => string } | null = null;
let ids: { chord: { callback: string; parts: string[]; group: string }; group: { id: string; parts: string[] }; chain: string[] };

const family = async (id: string): Promise<TaskFamily> => (await a.family!(id, { limit: 200 }))!;
const status = async (id: string) => (await a.getResult(id))?.status ?? null;
const start = (queues: string[]) => spawnCeleryWorker(env, queues, `fam-${P}`, ['-P', 'solo'], 'fam_celery_app');

if (up) {
  beforeAll(async () => {
    ids = JSON.parse(
      execFileSync(path.resolve(__dirname, '../../.venv/bin/python'), ['fam_celery_send.py', Q, HELD], {
        cwd: path.resolve(__dirname, '../py'),
        env,
      }).toString(),
    ) as typeof ids;
    a = createCeleryRedisAdapter({
      id: 'fam-celery',
      name: 'fam-celery',
      url: URL,
      readOnly: false,
      options: { resultBackend: URL, globalKeyprefix: BP, resultKeyprefix: RP, queues: [Q, HELD], inspectTimeoutMs: 300 },
    });
  }, 60_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker.proc);
    await a?.close();
    await dropKeysAt(URL, P);
    rmSync(out, { recursive: true, force: true });
  }, 30_000);

  describe('task family on Celery (Redis), real worker', () => {
    it('shows a waiting chord part with its chord and callback, from the message alone', async () => {
      const f = await family(ids.chord.parts[2]!);
      expect(f.self).toMatchObject({ status: 'waiting', link: 'task', task: 'fam.add', groupId: ids.chord.group });
      const g = f.groups.find((x) => x.id === ids.chord.group)!;
      expect(g.kind).toBe('chord');
      expect(g.callback).toMatchObject({ id: ids.chord.callback, task: 'fam.collect' });
    });

    it('after the worker ran: the failed part, the chord 2 done/1 failed, the callback it blocks', async () => {
      worker = start([Q]);
      const flaky = ids.chord.parts[1]!;
      await until('the flaky part to fail', async () => (await status(flaky)) === 'FAILURE', 60_000, worker.log);
      await until('the chain to finish', async () => (await status(ids.chain[2]!)) === 'SUCCESS', 60_000, worker.log);
      const held = await family(ids.chord.parts[2]!);
      const g = held.groups.find((x) => x.id === ids.chord.group)!;
      expect([g.done, g.failed]).toEqual([2, 1]);
      // Sorted copies: `ids` is shared by the cases below, in the order the chord was sent.
      expect([...g.members].sort()).toEqual([...ids.chord.parts].sort());
      expect(held.blocks).toEqual([expect.objectContaining({ by: flaky, waiting: expect.objectContaining({ id: ids.chord.callback }) })]);
      expect(held.blocks[0]!.why).toMatch(/ChordError/);
      // From the failed part itself: its chord's parts and counters, as the backend keeps them.
      const f = await family(flaky);
      expect(f.self).toMatchObject({ status: 'failed', link: 'dead', state: 'FAILURE' });
      expect(f.groups[0]).toMatchObject({ id: ids.chord.group, kind: 'chord', done: 2, failed: 1 });
      expect(f.unseen.join(' ')).toMatch(/callback is named only in its parts' messages/);
    });

    it('follows a finished chain through the children its results store, from any step', async () => {
      for (const asked of ids.chain) {
        const f = await family(asked);
        expect(f.members.map((m) => m.id)).toEqual(ids.chain);
        expect(f.members.every((m) => m.status === 'succeeded')).toBe(true);
      }
      const mid = await family(ids.chain[1]!);
      expect(mid.children.map((c) => c.id)).toEqual([ids.chain[2]]);
      expect(mid.root?.id).toBe(ids.chain[0]);
    });

    it('shows a plain group part in its group, with no counter to count', async () => {
      const f = await family(ids.group.parts[0]!);
      expect(f.self.status).toBe('succeeded');
      expect(f.groups[0]).toMatchObject({ id: ids.group.id, kind: 'group', done: null, total: null });
    });

    it('replays the failed part from its family; Celery keeps the chord failed', async () => {
      const flaky = ids.chord.parts[1]!;
      expect(await status(flaky)).toBe('FAILURE');
      writeFileSync(path.join(out, `${flaky}.ok`), '');
      const r = await a.replayDead([flaky]);
      expect(r.failed).toEqual([]);
      await until('the replayed part to succeed', async () => (await status(flaky)) === 'SUCCESS', 60_000, worker!.log);
      const f = await family(flaky);
      expect(f.self.status).toBe('succeeded');
      // The held part runs now; the chord counted the failure first, so its callback fails.
      await stopWorker(worker!.proc);
      worker = start([Q, HELD]);
      await until('the callback to settle', async () => (await status(ids.chord.callback)) !== null, 60_000, worker.log);
      expect(await status(ids.chord.callback)).toBe('FAILURE');
      const c = connectRedis(URL);
      try {
        expect(await c.get(`${RP}celery-task-meta-${ids.chord.callback}`)).toMatch(/ChordError/);
      } finally {
        c.disconnect();
      }
    });

    it('answers null for an id nothing holds or names', async () => {
      expect(await a.family!(`${P}-nope`, { limit: 5 })).toBeNull();
    });
  });
}
