// int-lane: owns redis/11 redis/12; uses redis/13 (the rig: Celery on dbs 11 and 12; potatoq under a prefix)
// Waiting tasks moved between brokers become a campaign followed on the TARGET under the ids it
// gave them, with real components: potatoq's own apply_async writes waiting tasks (SQLite, a queue
// no worker consumes), the real QueueFlow server takes them as jobs and its Python client's worker
// runs them, half fixed and half failing for good; the follow-up then says succeeded / failed per
// QueueFlow job id, each item naming its potatoq id. The way back: pending QueueFlow jobs moved to
// potatoq, run by the real potatoq worker, followed there under the jobs' ids.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { call } from '@/tests/queueflow/support';
import { PY_DIR } from '@/tests/support/postgres';
import { PYTHON } from '@/tests/support/potatoq-seeder';
import { untilSettled } from './support';
import {
  BulkJob,
  BY,
  logs,
  pq,
  Q,
  qfw,
  s,
  save,
  serviceBackend,
  sqEnv,
  stopWorkers,
  takeSnapshot,
  TQ,
  up,
} from '@/tests/support/move-qf-rig';

const mw = up ? await import('@/lib/brokers/move-waiting') : null;
const rec = up ? await import('@/lib/campaigns/record') : null;
const svc = up ? await import('@/lib/campaigns/service') : null;
const bulk = up ? await import('@/lib/bulk/follow') : null;
const ops = up ? await import('@/lib/actions/operations') : null;
const { getCampaignStore } = await import('@/lib/campaigns/open');
const { rollupLine } = await import('@/lib/campaigns/rollup');

/** A queue no potatoq worker consumes: its tasks wait. */
const W = `${Q}-cw`;

/** potatoq's apply_async of mv.record(n, "w<n>") to `queue` (no worker there); the ids. */
function waitingPotatoq(ns: number[], queue = W): string[] {
  const py = `import mv_potatoq_app as m\nfor n in ${JSON.stringify(ns)}:\n    print(m.record.apply_async(args=[n, f"w{n}"], queue=${JSON.stringify(queue)}).id)`;
  return execFileSync(PYTHON, ['-c', py], { cwd: PY_DIR, env: sqEnv }).toString().trim().split('\n');
}

/** The campaign the waiting move's operation records (lib/actions/move-waiting.ts), over its answer. */
const campaignOf = (from: string, to: string, done: ActionOutcome[]) =>
  rec!.recordItems(
    { broker: to, action: 'move-waiting', who: 'olga', reason: 'drain', auditId: null, parent: null, filter: null, from, firstRun: true },
    rec!.movedItems(done),
  );

const settled = (id: string) =>
  untilSettled(
    () => store,
    id,
    (c) => svc!.followCampaign(c),
    120_000,
    logs,
  );
let store: Awaited<ReturnType<typeof getCampaignStore>>;

describe.skipIf(!up)('moved waiting tasks followed as campaigns on the target, with real workers', () => {
  beforeAll(async () => {
    store = await getCampaignStore();
    qfw.start();
    pq.start([Q]);
  }, 60_000);
  afterAll(stopWorkers, 60_000);

  it('potatoq -> QueueFlow: half completed, half failed, per QueueFlow job id; a refused id is not in it', async () => {
    // Migrated to QueueFlow's qf.fatal, which fails for good until the fix for its n is deployed.
    await save({ source: 'sq', target: 'qf', task: 'mv.record', targetTask: 'qf.fatal', queue: TQ, args: ['n', 's'] });
    const ns = [21, 22, 23, 24];
    for (const n of [22, 24]) fs.writeFileSync(path.join(qfw.out, `fixed-${n}`), '');
    const ids = waitingPotatoq(ns);
    const r = await mw!.moveWaiting('sq', 'qf', [...ids, 'not-a-waiting-task'], BY);
    expect(r.failed).toEqual([expect.objectContaining({ id: 'not-a-waiting-task', outcome: 'missing' })]);
    const jobs = r.succeeded.map((o) => o.taskId!);
    expect(jobs.every((j, i) => j && j !== ids[i])).toBe(true);
    const id = (await campaignOf('sq', 'qf', r.succeeded))!;

    const c = await settled(id);
    expect(c).toMatchObject({ broker: 'qf', scope: { from: 'sq', firstRun: true, count: 4 } });
    expect(c.rollup).toMatchObject({ total: 4, succeeded: 2, deadSame: 0, deadNew: 0, deadUnlinked: 2 });
    expect(rollupLine(c.rollup, c.scope.firstRun)).toBe('2 succeeded · 2 failed');
    const items = (await store.items(id, { fate: 'all', limit: 10 })).items;
    expect(items.map((i) => [i.id, i.from])).toEqual(jobs.map((j, k) => [j, ids[k]]));
    // Each job's own status on QueueFlow: completed for the fixed n, failed for the others.
    for (const [k, i] of items.entries()) {
      const job = (await call<{ status: string }>(s!, 'GET', `/api/v1/jobs/${i.id}`)).body;
      expect([i.fate, job.status]).toEqual(ns[k]! % 2 === 0 ? ['succeeded', 'completed'] : ['dead', 'failed']);
      if (i.fate === 'dead') expect(i).toMatchObject({ same: null, before: null, fingerprint: expect.stringMatching(/^fp-/) });
    }
  }, 240_000);

  it("replay the ones that died again: each job's own QueueFlow letter replayed once; a second press refused per id", async () => {
    await save({ source: 'sq', target: 'qf', task: 'mv.record', targetTask: 'qf.fatal', queue: TQ, args: ['n', 's'] });
    const ns = [51, 52, 53];
    fs.writeFileSync(path.join(qfw.out, 'fixed-52'), '');
    const ids = waitingPotatoq(ns, `${W}-again`);
    const r = await mw!.moveWaiting('sq', 'qf', ids, BY);
    expect(r.failed).toEqual([]);
    const first = await settled((await campaignOf('sq', 'qf', r.succeeded))!);
    expect(rollupLine(first.rollup, first.scope.firstRun)).toBe('1 succeeded · 2 failed');
    // Each failed job's letter is a DLQ entry of its own id (a number), naming the job.
    const dead = (await store.items(first.id, { fate: 'dead', limit: 10 })).items;
    expect(dead.map((i) => i.from)).toEqual([ids[0], ids[2]]);
    for (const i of dead) {
      expect(i.letter).toMatch(/^\d+$/);
      const l = (await call<{ job_id: string; replayed_at?: string | null }>(s!, 'GET', `/api/v1/dlq/${i.letter}`)).body;
      expect([l.job_id, l.replayed_at ?? null]).toEqual([i.id, null]);
    }

    // The fix for 51 is deployed; the operator presses "Replay the 2 that died again".
    fs.writeFileSync(path.join(qfw.out, 'fixed-51'), '');
    const h = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
    const again = await ops!.replayDeadAgain(first.id, { reason: 'fix for 51 deployed' }, h);
    expect(again.failed).toEqual([]);
    expect(again.succeeded.map((o) => o.id)).toEqual(dead.map((i) => i.letter));
    // On QueueFlow: each letter marked replayed as a new job of the same task and payload.
    for (const [k, o] of again.succeeded.entries()) {
      const l = (await call<{ replay_job_id?: string }>(s!, 'GET', `/api/v1/dlq/${o.id}`)).body;
      expect(l.replay_job_id).toBe(o.taskId);
      const job = (await call<{ task_name: string; payload: { n: number } }>(s!, 'GET', `/api/v1/jobs/${o.taskId}`)).body;
      expect([job.task_name, job.payload.n]).toEqual(['qf.fatal', [51, 53][k]]);
    }
    // The new campaign follows those letters to their jobs: 51 fixed, 53 dies again.
    const next = await settled(again.campaign!);
    expect(next).toMatchObject({ parent: first.id, action: 'replay-again', rollup: { total: 2, succeeded: 1 } });
    const followed = (await store.items(next.id, { fate: 'all', limit: 10 })).items;
    expect(followed.map((i) => [i.id, i.followed, i.fate])).toEqual(
      again.succeeded.map((o, k) => [o.id, o.taskId, k ? 'dead' : 'succeeded']),
    );

    // A second press: QueueFlow refuses each letter it replayed already; nothing runs twice.
    const twice = await ops!.replayDeadAgain(first.id, { reason: 'pressed again' }, h);
    expect(twice.succeeded).toEqual([]);
    expect(twice.failed.map((o) => [o.id, o.outcome, o.taskId])).toEqual(again.succeeded.map((o) => [o.id, 'already', o.taskId]));
    for (const o of again.succeeded)
      expect((await call<{ replay_job_id?: string }>(s!, 'GET', `/api/v1/dlq/${o.id}`)).body.replay_job_id).toBe(o.taskId);
  }, 240_000);

  it('a bulk move of a queue: its campaign cmp-<job> holds each moved task once, under its job id, and settles', async () => {
    const ns = [41, 42, 43, 44, 45];
    for (const n of [42, 44]) fs.writeFileSync(path.join(qfw.out, `fixed-${n}`), '');
    const ids = waitingPotatoq(ns, `${W}-bulk`);
    const filter = { queue: `${W}-bulk`, to: 'qf' };
    const backend = serviceBackend('sq', 'move-waiting', filter);
    const job = new BulkJob({
      brokerId: 'sq',
      action: 'move-waiting',
      filter,
      snapshot: await takeSnapshot(backend),
      backend,
      batchSize: 2,
    });
    job.actor = 'olga';
    await bulk!.followBulk(job, null, 'drain');
    job.start();
    await job.finished;
    await bulk!.followBulkEnd(job);
    expect(job.view()).toMatchObject({ state: 'done', progress: { succeeded: 5, failed: 0 } });
    const c = await settled(`cmp-${job.id}`);
    expect(c).toMatchObject({ action: 'bulk-move-waiting', broker: 'qf', scope: { from: 'sq', firstRun: true, job: { state: 'done' } } });
    expect(c.rollup.total).toBe(5);
    expect(rollupLine(c.rollup, c.scope.firstRun)).toBe('2 succeeded · 3 failed');
    const items = (await store.items(c.id, { fate: 'all', limit: 10 })).items;
    const order = job.snapshotIds();
    expect(new Set(items.map((i) => i.from))).toEqual(new Set(ids));
    for (const i of items) {
      const n = ns[ids.indexOf(i.from!)]!;
      expect(i.id).not.toBe(i.from);
      expect([i.fate, order.indexOf(i.from!) >= 0]).toEqual([n % 2 === 0 ? 'succeeded' : 'dead', true]);
    }
  }, 240_000);

  it('the way back, QueueFlow -> potatoq: pending jobs run by the potatoq worker, followed under the jobs ids', async () => {
    // QueueFlow's qf.fatal came from mv.record (succeeds there); its qf.ok goes back as mv.fail (fails).
    // No fixed queue either way: the job's queue says where the task goes back to.
    await save({ source: 'sq', target: 'qf', task: 'mv.record', targetTask: 'qf.fatal', args: ['n', 's'] });
    await save({ source: 'sq', target: 'qf', task: 'mv.fail', targetTask: 'qf.ok', args: ['n'] });
    const pending = async (task: string, n: number) =>
      (
        await call<{ job_id: string }>(s!, 'POST', '/api/v1/jobs', {
          body: { task_name: task, payload: { n, s: 'b' }, config: { queue: Q } },
        })
      ).body.job_id;
    const jobs = [await pending('qf.fatal', 31), await pending('qf.ok', 32), await pending('qf.fatal', 33), await pending('qf.ok', 34)];
    const r = await mw!.moveWaiting('qf', 'sq', jobs, BY);
    expect(r.failed).toEqual([]);
    const id = (await campaignOf('qf', 'sq', r.succeeded))!;
    const c = await settled(id);
    expect(rollupLine(c.rollup, c.scope.firstRun)).toBe('2 succeeded · 2 failed');
    const items = (await store.items(id, { fate: 'all', limit: 10 })).items;
    expect(items.map((i) => [i.id, i.from, i.fate])).toEqual(jobs.map((j, k) => [j, j, k % 2 === 0 ? 'succeeded' : 'dead']));
    expect(items.filter((i) => i.fate === 'dead').every((i) => /mv.fail failed on potatoq/.test(i.detail))).toBe(true);
  }, 240_000);
});
