// A campaign's follow-up on potatoq's RabbitMQ broker (RabbitMQ 4, results in Redis) against
// the REAL potatoq worker: letters replayed after a fix, where half die again into the DLQ (a
// quarter with the same error, a quarter with a new one). RabbitMQ finds no message by id, so a
// replayed task that has not run yet is unknown, with why; never dead by the FAILURE record its
// first death left in the backend.
// int-lane: owns rabbitmq; uses redis/0 (RabbitMQ as a whole, conservatively; results under a per-run prefix)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import type { RabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';
import { MIN_POLL_MS, pollCampaign } from '@/lib/campaigns/follow';
import { openSqliteCampaignStore } from '@/lib/campaigns/open';
import type { CampaignStore } from '@/lib/campaigns/store';
import { PYTHON, ROOT, type PySeeder } from '@/tests/support/potatoq-seeder';
import {
  newTag,
  PY_DIR,
  potatoqUrl,
  rabbitAdapter,
  rabbitVersion,
  REDIS_URL,
  RMQ4_MGMT,
  RMQ4_URL,
  spawnRabbitSeeder,
} from '@/tests/support/rabbitmq';
import { SoloWorker, until } from '@/tests/support/solo-worker';
import { replayAsCampaign, untilSettled } from './support';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4);
const tag = newTag();
const queue = `cp${tag}`;
let dir: string;
let env: NodeJS.ProcessEnv;
let adapter: RabbitmqAdapter;
let store: CampaignStore;
let py: PySeeder;
let worker: SoloWorker;
let ids: string[];
let clock = Date.now();
const log = () => `worker log:\n${worker?.log ?? ''}`;
const poll = (id: string) => {
  clock += MIN_POLL_MS;
  return pollCampaign(store, id, { fates: async (_b, batch) => adapter.fate!(batch), now: () => clock });
};
const dead = async () => (await adapter.listDead(ZDeadListQuery.parse({ queue, limit: 500 }))).items;

describe.skipIf(!available)('campaign follow-up on potatoq RabbitMQ 4 with its real worker', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-rmq-'));
    env = { ...process.env, CP_BROKER: potatoqUrl(RMQ4_URL), CP_BACKEND: REDIS_URL, CP_PREFIX: tag, CP_OUT: dir, PYTHONUNBUFFERED: '1' };
    py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    await py.call('track', { queue });
    adapter = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } });
    store = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
    worker = new SoloWorker('cp_tasks', PY_DIR, env);
    worker.start([queue]);
    await until(
      'the worker to declare its queue',
      async () => (await adapter.overview()).queues.some((q) => q.name === queue),
      30_000,
      log,
    );
    ids = execFileSync(PYTHON, ['cp_tasks.py', 'produce', queue, '8'], { cwd: PY_DIR, env }).toString().trim().split(' ');
    await until('every task to die', async () => (await dead()).length === 8, 60_000, log);
    await worker.stop();
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await adapter?.close();
    await py?.call('cleanup').catch(() => undefined);
    await py?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tells unknown before the worker runs, then half died again (same error or new) and half succeeded', async () => {
    expect((await adapter.capabilities()).fate).toEqual({ on: true });
    fs.writeFileSync(path.join(dir, 'fixed'), '');
    const id = await replayAsCampaign(adapter, store, ids, 'rmq');
    await poll(id);
    expect((await store.get(id))!.rollup).toMatchObject({ unknown: 8, deadSame: 0, deadNew: 0 });
    expect((await store.items(id, { fate: 'unknown', limit: 1 })).items[0]!.detail).toMatch(/RabbitMQ cannot find a message by id/);

    worker.start([queue]);
    const c = await untilSettled(() => store, id, poll, 60_000, log);
    expect(c.rollup).toMatchObject({ total: 8, succeeded: 4, deadSame: 2, deadNew: 2, unknown: 0 });
    const same = await store.items(id, { fate: 'dead-same', limit: 10 });
    expect(same.items.map((i) => i.id).sort()).toEqual([ids[1]!, ids[5]!].sort());
  }, 120_000);
});
