// A campaign's follow-up against the REAL Celery worker on Redis (broker and result backend):
// FAILURE records replayed after a fix, where half fail again (a quarter with the same error, a
// quarter with a new one); a console restart mid-follow-up; a SUCCESS record Redis expires (gone).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCeleryRedisAdapter } from '@/lib/brokers/celery/redis/adapter';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { MIN_POLL_MS, pollCampaign } from '@/lib/campaigns/follow';
import { openSqliteCampaignStore } from '@/lib/campaigns/open';
import type { CampaignStore } from '@/lib/campaigns/store';
import { connectRedis } from '@/lib/transports/redis/server';
import { newCeleryWorld, redisAvailable, redisDb, startWorker, stopWorker, until } from '@/tests/brokers/celery/redis/support';
import { PYTHON, ROOT } from '@/tests/support/potatoq-seeder';

const up = await redisAvailable();
const tag = randomBytes(4).toString('hex');
const QUEUE = `cp-${tag}`;
const prefix = `cp-${tag}-`;
const w = newCeleryWorld(2, 2);
w.env = { ...w.env, CT_RESULT_PREFIX: prefix };
let adapter: BrokerAdapter;
let store: CampaignStore;
let ids: string[];
let worker: ReturnType<typeof startWorker> | null = null;
let dir: string;
let clock = Date.now();

const open = () =>
  createCeleryRedisAdapter({
    id: 'cp',
    name: 'cp',
    url: w.broker,
    readOnly: false,
    options: { resultBackend: w.backend, resultKeyprefix: prefix },
  });
const poll = (id: string) => {
  clock += MIN_POLL_MS;
  return pollCampaign(store, id, { fates: async (_b, batch) => adapter.fate!(batch), now: () => clock });
};
const base = { broker: 'cp', action: 'replay', who: 'olga', reason: 'card check fixed', auditId: null, parent: null, filter: null };
const run = (env: Record<string, string> = {}) => (worker = startWorker({ ...w, env: { ...w.env, ...env } }, [QUEUE], `cp-${tag}`));
const halt = async () => {
  if (worker) await stopWorker(worker.proc);
  worker = null;
};

async function replayAsCampaign(replay: string[]): Promise<string> {
  const before = await adapter.fate!(replay);
  expect(before.every((f) => f.fate === 'dead' && f.fingerprint)).toBe(true);
  const r = await adapter.replayDead(replay);
  expect(r.failed).toEqual([]);
  return store.create(
    base,
    r.succeeded.map((o) => ({ id: o.id, before: before.find((f) => f.id === o.id)!.fingerprint })),
  );
}

describe.skipIf(!up)('campaign follow-up on Celery with Redis and its real worker', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-celery-'));
    const send = `from rt_celery_app import app\nprint(" ".join(app.send_task("cp.half", (i,), queue="${QUEUE}").id for i in range(24)))`;
    ids = execFileSync(PYTHON, ['-c', send], { cwd: path.join(ROOT, 'tests/py'), env: { ...process.env, ...w.env } })
      .toString()
      .trim()
      .split(' ');
    adapter = open();
    store = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
    run();
    await until(
      'every FAILURE record',
      async () => (await Promise.all(ids.map((i) => adapter.getDead(i)))).every(Boolean),
      90_000,
      worker!.log,
    );
    await halt();
  }, 120_000);

  afterAll(async () => {
    await halt();
    await adapter?.close();
    const c = connectRedis(redisDb(2));
    const keys = [...(await c.keys(`${prefix}*`)), ...(await c.keys(`*${QUEUE}*`))];
    if (keys.length) await c.del(...keys);
    c.disconnect();
    fs.rmSync(w.out, { recursive: true, force: true });
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('tells half failed again (same error or new), half succeeded, across a console restart', async () => {
    fs.writeFileSync(path.join(w.out, 'fixed'), '');
    const id = await replayAsCampaign(ids.slice(0, 20));
    expect(await poll(id)).toMatchObject({ polled: true, looked: 20, settled: false });
    expect((await store.get(id))!.rollup).toMatchObject({ waiting: 20 });

    await adapter.close();
    adapter = open();
    store = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
    run();
    const c = await until(
      'the campaign to settle',
      async () => {
        await poll(id);
        const now = (await store.get(id))!;
        return now.follow.state === 'settled' ? now : null;
      },
      90_000,
      worker!.log,
    );
    expect(c.rollup).toMatchObject({ total: 20, succeeded: 10, deadSame: 5, deadNew: 5, gone: 0 });
    const fresh = await store.items(id, { fate: 'dead-new', limit: 100 });
    expect(fresh.items.map((i) => i.id).sort()).toEqual([3, 7, 11, 15, 19].map((n) => ids[n]).sort());
    await halt();
  }, 150_000);

  it('says gone, not succeeded, once Redis expired the SUCCESS record', async () => {
    const pair = [ids[20]!, ids[22]!];
    const id = await replayAsCampaign(pair);
    run({ CT_RESULT_EXPIRES: '1' });
    await until(
      'both SUCCESS records',
      async () => (await Promise.all(pair.map((i) => adapter.getResult(i)))).every((r) => r?.status === 'SUCCESS'),
      60_000,
      worker!.log,
    );
    await halt();
    await until(
      'Redis to expire them',
      async () => (await Promise.all(pair.map((i) => adapter.getResult(i)))).every((r) => r === null),
      10_000,
    );
    await poll(id);
    expect((await store.get(id))!.rollup).toMatchObject({ gone: 2, succeeded: 0 });
  }, 120_000);
});
