// A bulk replay's campaign is live while the job runs, against the REAL potatoq worker on
// SQLite: 200 letters replayed in paced batches, the campaign read mid-job (it exists, its
// tasks grow), the console that runs the job stopping with a batch in flight and another
// console taking the job over, and the campaign at the end holding each replayed id once.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POTATOQ, PYTHON, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpb-'));
const url = `sqlite:///${path.join(dir, 'broker.sqlite3')}`;
const stateFile = path.join(dir, 'console-state.sqlite3');
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'cpb', name: 'Bulk campaign', url }]);
process.env.POTATOQ_CONSOLE_STATE = stateFile;
const { serviceBackend } = await import('@/lib/bulk/backend');
const { BulkJob } = await import('@/lib/bulk/runner');
const { takeSnapshot } = await import('@/lib/bulk/snapshot');
const { acquireJob, INTERRUPTED_IN_FLIGHT, restoreJob, rowOf, storeHooks } = await import('@/lib/bulk/persist');
const { createSqlBulkStore } = await import('@/lib/bulk/store-sql');
const { openStateDbForTests } = await import('@/lib/state/sql');
const { followBulk, followBulkEnd } = await import('@/lib/bulk/follow');
const { getCampaignStore } = await import('@/lib/campaigns/open');
const { MIN_POLL_MS, pollCampaign } = await import('@/lib/campaigns/follow');
const { taskFates } = await import('@/lib/brokers/service-fate');
const { resetAdapters } = await import('@/lib/brokers/registry');
const { latch } = await import('@/tests/bulk/fake-backend');

const PY_DIR = path.join(ROOT, 'tests/py');
const QUEUE = `cpb-${process.pid}`;
const env = { ...process.env, CP_BROKER: url, CP_OUT: dir, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
const worker = new SoloWorker('cp_tasks', PY_DIR, env);
const until = <T>(what: string, fn: () => Promise<T | null | false | undefined>, ms = 120_000) =>
  waitFor(what, fn, ms, () => `worker log:\n${worker.log}`);
let ids: string[];
let group: string;

beforeAll(async () => {
  execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
  execFileSync(POTATOQ, ['-A', 'cp_tasks', 'migrate'], { cwd: PY_DIR, env });
  ids = execFileSync(PYTHON, ['cp_tasks.py', 'produce', QUEUE, '200'], { cwd: PY_DIR, env }).toString().trim().split(' ');
  worker.start([QUEUE]);
  await until('every task to die', async () => {
    const f = await taskFates('cpb', ids.slice(-100));
    return f.every((x) => x.fate === 'dead') && (await taskFates('cpb', ids.slice(0, 100))).every((x) => x.fate === 'dead');
  });
  group = (await taskFates('cpb', [ids[0]!]))[0]!.fingerprint!;
  // The fix is deployed; the worker keeps running and takes each replayed task as it comes.
  fs.writeFileSync(path.join(dir, 'fixed'), '');
}, 240_000);

afterAll(async () => {
  await worker.stop();
  await resetAdapters();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a bulk replay's campaign on potatoq SQLite with its real worker", () => {
  it('is live while the job runs, survives the job moving to another console, and holds each id once', async () => {
    // Console A's clock runs a minute late, so its lease is over for everyone else the moment it
    // stops renewing it (as a console that died); B is a console started afterwards.
    const storeA = createSqlBulkStore(await openStateDbForTests(stateFile), { me: 'console-a', now: () => Date.now() - 60_000 });
    const storeB = createSqlBulkStore(await openStateDbForTests(stateFile), { me: 'console-b' });
    const real = serviceBackend('cpb', 'replay', { group });
    const died = latch();
    let calls = 0;
    // Console A dies before sending its 6th batch: that batch never reaches the broker.
    const dying = {
      listPage: real.listPage.bind(real),
      act: async (batch: string[]) => {
        if (++calls !== 6) return real.act(batch);
        await died.wait;
        throw new Error('console A is gone');
      },
    };
    const job = new BulkJob({
      brokerId: 'cpb',
      action: 'replay',
      filter: { group },
      snapshot: await takeSnapshot(dying),
      backend: dying,
      rate: 20,
    });
    expect(job.total).toBe(200);
    job.hooks = storeHooks(storeA);
    job.actor = 'olga';
    await storeA.create(rowOf(job), job.snapshotIds());
    expect(await storeA.claim(job.id)).toBe(true);
    await followBulk(job, null, 'card check fixed');
    const store = await getCampaignStore();
    const id = `cmp-${job.id}`;
    // Made at the start, before any batch: the frozen filter and the snapshot's count.
    expect(await store.get(id)).toMatchObject({
      action: 'bulk-replay',
      who: 'olga',
      reason: 'card check fixed',
      scope: { count: 200, filter: { group, jobId: job.id }, job: { id: job.id, state: 'running' } },
      rollup: { total: 0 },
    });
    job.start();
    const early = await until('the first batches in the campaign', async () => {
      const t = (await store.get(id))!.rollup.total;
      return t >= 20 && t;
    });
    expect(early).toBeLessThan(100);
    const later = await until('more batches in the campaign', async () => {
      const t = (await store.get(id))!.rollup.total;
      return t > early && t;
    });
    expect(later).toBeLessThanOrEqual(100);
    // The follow-up looks while the job runs; the campaign stays open.
    let clock = Date.now();
    const poll = () => pollCampaign(store, id, { fates: taskFates, now: () => (clock += MIN_POLL_MS) });
    expect(await poll()).toMatchObject({ polled: true, settled: false });
    await until('console A to stop with its 6th batch held', async () => calls === 6);
    expect((await store.get(id))!.rollup.total).toBe(100);

    // Console B takes the job over: the held batch is reported as maybe applied, never sent again.
    const r = await acquireJob(storeB, job.id);
    expect(r).toMatchObject({ state: 'paused', done: 120, failed: 20, interrupted: { processed: 100, inFlight: 20 } });
    const b = await restoreJob(storeB, r!, real);
    b.actor = 'piotr';
    await followBulk(b, null, null);
    b.resume();
    if (!b.looping) b.continueRestored();
    await b.finished;
    await followBulkEnd(b);
    expect(b.view().progress).toMatchObject({ total: 200, processed: 200, succeeded: 180, failed: 20 });
    expect((await storeB.outcomes(job.id, 50)).map((o) => o.message)).toEqual(Array(20).fill(INTERRUPTED_IN_FLIGHT));
    // What console A still had in hand ends there: it holds no lease, so it writes nothing.
    died.open();
    await job.finished;
    expect(job.lost).toBe(true);

    const c = await until('the campaign to settle', async () => {
      await poll();
      const now = (await store.get(id))!;
      return now.follow.state === 'settled' ? now : null;
    });
    const held = new Set(job.snapshotIds().slice(100, 120));
    const taken = ids.map((t, n) => ({ t, n })).filter(({ t }) => !held.has(t));
    const items = (await store.items(id, { fate: 'all', limit: 500 })).items;
    expect(items.map((i) => i.id).sort()).toEqual(taken.map((x) => x.t).sort());
    expect(c).toMatchObject({ who: 'olga', scope: { count: 200, job: { state: 'done', why: null } } });
    // cp.half once fixed: n % 4 == 1 dies of the same error, n % 4 == 3 of a new one.
    const by = (k: number) => taken.filter((x) => x.n % 4 === k).length;
    expect(c.rollup).toMatchObject({ total: 180, succeeded: by(0) + by(2), deadSame: by(1), deadNew: by(3), waiting: 0, pending: 0 });
    // The held batch was never replayed: still dead, with its first error.
    const heldNow = await taskFates('cpb', [...held]);
    expect(heldNow.every((f) => f.fate === 'dead' && f.fingerprint === group)).toBe(true);
    await Promise.all([storeA.close(), storeB.close()]);
  }, 240_000);
});
