// A campaign's follow-up against the REAL potatoq worker on SQLite: letters replayed after a
// fix, where half die again (a quarter with the same error, a quarter with a new one); a console
// that restarts mid-follow-up resumes from its state store; a result that expires is `gone`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { createFollower } from '@/lib/campaigns/background';
import { MIN_POLL_MS, pollCampaign } from '@/lib/campaigns/follow';
import { openSqliteCampaignStore } from '@/lib/campaigns/open';
import type { CampaignStore } from '@/lib/campaigns/store';
import { openStateDbForTests } from '@/lib/state/sql';
import { createDeathStore } from '@/lib/trends/deaths-store';
import { recordDeaths } from '@/lib/trends/deaths';
import { trendWindow } from '@/lib/trends/ranges';
import { POTATOQ, PYTHON, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';
import { replayAsCampaign, untilSettled } from './support';

const PY_DIR = path.join(ROOT, 'tests/py');
const QUEUE = `cp-${process.pid}`;
let dir: string;
let env: NodeJS.ProcessEnv;
let url: string;
let adapter: BrokerAdapter;
let store: CampaignStore;
let ids: string[];
let worker: SoloWorker;
let firstFp: string;

const until = <T>(what: string, fn: () => Promise<T | null | false | undefined>, ms = 90_000) =>
  waitFor(what, fn, ms, () => `worker log:\n${worker?.log ?? ''}`);
const open = () => createSqliteAdapter({ id: 'cp', name: 'campaigns', url, readOnly: false, options: {} });
const stateFile = () => path.join(dir, 'console-state.sqlite3');
let clock = Date.now();
/** One poll, as a page view would drive it (the clock moves past the minimum interval). */
const poll = (id: string) => {
  clock += MIN_POLL_MS;
  return pollCampaign(store, id, { fates: async (_b, batch) => adapter.fate!(batch), now: () => clock });
};

/** One tick of the death record, as the trend sampler's holder makes it, on the same state file. */
async function recordTick(): Promise<number> {
  const db = await openStateDbForTests(stateFile());
  try {
    const got = await recordDeaths(
      createDeathStore(db),
      {
        brokers: () => ['cp'],
        newest: async (_b, limit) => (await adapter.listDead(ZDeadListQuery.parse({ limit }))).items,
        fingerprints: async (_b, batch) => new Map((await adapter.fate!(batch)).map((f) => [f.id, f.fingerprint])),
      },
      Date.now(),
    );
    return got.cp ?? -1;
  } finally {
    await db.close();
  }
}

const replay = (ids: string[]) => replayAsCampaign(adapter, store, ids);

beforeAll(async () => {
  execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-'));
  url = `sqlite:///${path.join(dir, 'broker.sqlite3')}`;
  env = { ...process.env, CP_BROKER: url, CP_OUT: dir, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
  execFileSync(POTATOQ, ['-A', 'cp_tasks', 'migrate'], { cwd: PY_DIR, env });
  ids = execFileSync(PYTHON, ['cp_tasks.py', 'produce', QUEUE, '24'], { cwd: PY_DIR, env }).toString().trim().split(' ');
  adapter = open();
  store = await openSqliteCampaignStore(stateFile());
  worker = new SoloWorker('cp_tasks', PY_DIR, env);
  worker.start([QUEUE]);
  await until('every task to die', async () => (await Promise.all(ids.map((i) => adapter.getDead(i)))).every(Boolean));
  await worker.stop();
  // The incident as the console's sampler sees it, before anyone replays anything.
  expect(await recordTick()).toBe(24);
  firstFp = (await adapter.fate!([ids[0]!]))[0]!.fingerprint!;
});

afterAll(async () => {
  await worker?.stop();
  await adapter?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('campaign follow-up on potatoq SQLite with its real worker', () => {
  it('tells half died again (same error or new), half succeeded, across a console restart', async () => {
    fs.writeFileSync(path.join(dir, 'fixed'), '');
    const id = await replay(ids.slice(0, 20));
    // The worker is stopped: every replayed task waits.
    expect(await poll(id)).toMatchObject({ polled: true, looked: 20, settled: false });
    expect((await store.get(id))!.rollup).toMatchObject({ waiting: 20, pending: 0 });

    // The console restarts: a new state-store handle and a new adapter; nothing in memory survives.
    await adapter.close();
    adapter = open();
    store = await openSqliteCampaignStore(stateFile());
    worker.start([QUEUE]);
    const c = await untilSettled(
      () => store,
      id,
      poll,
      90_000,
      () => `worker log:\n${worker?.log ?? ''}`,
    );
    expect(c.rollup).toMatchObject({ total: 20, succeeded: 10, deadSame: 5, deadNew: 5, waiting: 0, gone: 0 });
    const same = await store.items(id, { fate: 'dead-same', limit: 100 });
    expect(same.items.map((i) => i.id).sort()).toEqual([1, 5, 9, 13, 17].map((n) => ids[n]).sort());
    const fresh = await store.items(id, { fate: 'dead-new', limit: 100 });
    expect(fresh.items.every((i) => i.fingerprint !== i.before && /KeyError/.test(i.detail))).toBe(true);
    const ok = await store.items(id, { fate: 'succeeded', limit: 100 });
    expect(ok.items[0]!.detail).toMatch(/^SUCCESS .*result kept until/);
    await worker.stop();
  });

  it('says gone, not succeeded, for a task whose result expired before anyone looked', async () => {
    const id = await replay([ids[20]!, ids[22]!]);
    worker.start([QUEUE], { CP_RESULT_EXPIRES: '1' });
    await until('both to finish', async () => (await Promise.all([ids[20]!, ids[22]!].map((i) => adapter.getResult(i)))).every(Boolean));
    await worker.stop();
    await new Promise((r) => setTimeout(r, 1500));
    // potatoq's own maintenance pass drops the expired results.
    execFileSync(PYTHON, ['cp_tasks.py', 'maintenance'], { cwd: PY_DIR, env });
    await poll(id);
    const c = (await store.get(id))!;
    expect(c.rollup).toMatchObject({ gone: 2, succeeded: 0 });
    expect((await store.items(id, { fate: 'gone', limit: 10 })).items[0]!.detail).toMatch(/result expired/);
  });

  it('is followed to the end with nobody viewing it, by the background follower, across a restart', async () => {
    const id = await replay([ids[21]!, ids[23]!]);
    const follower = (s: CampaignStore) =>
      createFollower({ store: async () => s, fates: async (_b, batch) => adapter.fate!(batch), intervalMs: 200 });
    let f = follower(store);
    f.start();
    // No page view polls it: the follower alone looks (the worker is stopped, so both wait).
    await until('the follower to look', async () => (await store.get(id))!.rollup.waiting === 2);
    await f.stop();

    // The console restarts mid-follow-up: a new store handle, adapter and follower.
    await adapter.close();
    adapter = open();
    store = await openSqliteCampaignStore(stateFile());
    f = follower(store);
    f.start();
    worker.start([QUEUE]);
    try {
      const c = await until('the campaign to settle unviewed', async () => {
        const now = (await store.get(id))!;
        return now.follow.state === 'settled' ? now : null;
      });
      // With the fix in place, odd tasks still die (test one's rule): both died again.
      expect(c.rollup).toMatchObject({ total: 2, deadSame: 1, deadNew: 1, waiting: 0, pending: 0 });
    } finally {
      await f.stop();
      await worker.stop();
    }
  });

  it('keeps the incident in the death record after its letters were replayed (and adds the deaths since)', async () => {
    const w = trendWindow('hour', Date.now());
    const sum = (c: number[]) => c.reduce((n, x) => n + x, 0);
    // The broker now keeps only the letters that died again (tests above: 10 of 20, then 2 of 2).
    const kept = sum((await adapter.deadHistogram!(w)).counts);
    expect(kept).toBe(12);
    expect(await recordTick()).toBe(12);
    const db = await openStateDbForTests(stateFile());
    try {
      const deaths = createDeathStore(db);
      expect(sum(await deaths.read({ broker: 'cp', ...w }))).toBe(24 + 12);
      // The first error: all 24 first deaths, and the 6 that died of it again.
      expect(sum(await deaths.read({ broker: 'cp', ...w, group: firstFp }))).toBe(30);
      // A second look records nothing twice.
      expect(await recordTick()).toBe(0);
    } finally {
      await db.close();
    }
  });
});
