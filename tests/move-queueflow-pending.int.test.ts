// Pending QueueFlow jobs moved back to Celery (Redis) and potatoq (SQLite) as waiting tasks,
// through the call mapping read the other way, with real components: the QueueFlow 0.6.0 server
// holds the jobs, its Python client's worker would run any not taken, a Celery 5.7 worker and a
// potatoq worker run the moved tasks. The take cancels the job while its queue is paused; a job a
// worker leased first is refused. Exactly once: a console killed (SIGKILL) between the cancel and
// the enqueue recovers on the next move (its held call, the job's id on the target), and two
// console processes move the same job.
// int-lane: owns redis/11 redis/12; uses redis/13 (the rig: Celery on dbs 11 and 12; potatoq under a prefix)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsIn } from '@/tests/support/runs-log';
import { call, PyWorker, ROOT, until } from '@/tests/queueflow/support';
import {
  BY,
  getAdapter,
  getMoveJournal,
  logs,
  outC,
  outP,
  Q,
  s,
  save,
  spawnConsole,
  startWorkers,
  stopWorkers,
  up,
} from '@/tests/support/move-qf-rig';

const mw = up ? await import('@/lib/brokers/move-waiting') : null;
/** Celery's mv.record was migrated to QueueFlow's qf.ok: positional n and label, the rest kwargs. */
const BACK = { source: 'celery', target: 'qf', task: 'mv.record', targetTask: 'qf.ok', args: ['n', 'label'] };
/** QueueFlow's worker on queue Q, started once the moves are done: it runs what was not taken. */
// A short lease: it heartbeats (and would see a cancel) every 2 s.
const qw = s ? new PyWorker(s, Q, 4) : (null as unknown as PyWorker);
const moved: string[] = [];
let n = 0;
type Result = { succeeded: Array<{ id: string; outcome: string; message: string }>; failed: Array<{ id: string; outcome: string }> };

const statusOf = async (job: string) => (await call<{ status: string }>(s!, 'GET', `/api/v1/jobs/${job}`)).body.status;
const paused = async () =>
  (await call<{ queues: Array<{ queue: string; paused?: boolean }> }>(s!, 'GET', '/api/v1/queues')).body.queues.find((x) => x.queue === Q)
    ?.paused ?? false;
const ranOn = (out: string, id: string) => JSON.parse(fs.readFileSync(path.join(out, `${id}.json`), 'utf8')) as Record<string, unknown>;
const result = (out: string) => JSON.parse(/RESULT (.*)/.exec(out)?.[1] ?? 'null') as Result | null;

/** A qf.ok job pending on Q (no QueueFlow worker leases Q yet); its id and payload. */
async function pendingJob(): Promise<{ job: string; payload: Record<string, unknown> }> {
  const payload = { n: ++n, label: 'p', extra: true };
  const r = await call<{ job_id: string }>(s!, 'POST', '/api/v1/jobs', { body: { task_name: 'qf.ok', payload, config: { queue: Q } } });
  return { job: r.body.job_id, payload };
}

/** Ran once on `out` under the job's id, cancelled on QueueFlow, queue resumed, no journal row. */
async function movedOnce(out: string, job: string) {
  await until('the target worker to run it', () => runsIn(out, job) > 0, 40_000, logs);
  expect(await statusOf(job)).toBe('cancelled');
  expect(await paused()).toBe(false);
  expect(await (await getMoveJournal()).get('qf', job)).toBeNull();
  expect(runsIn(out, job)).toBe(1);
  moved.push(job);
}

describe.skipIf(!up)('moving pending QueueFlow jobs back to Celery and potatoq, with real workers on both sides', () => {
  beforeAll(startWorkers, 90_000);
  afterAll(async () => {
    await qw?.stop();
    await stopWorkers();
  }, 60_000);

  it('offers Celery and potatoq for pending jobs, not another QueueFlow; refuses a job with no mapping, then moves it once', async () => {
    expect(await mw!.waitingPairing('qf', 'celery')).toEqual({ on: true, does: expect.stringMatching(/paused for a moment.*job's id/s) });
    expect(await mw!.waitingPairing('qf', 'sq')).toMatchObject({ on: true });
    expect(await mw!.waitingPairing('qf', 'qfro')).toEqual({ on: false, why: expect.stringMatching(/does not enqueue calls of another/) });
    const { job, payload } = await pendingJob();
    const none = await mw!.moveWaiting('qf', 'celery', [job], BY);
    expect(none.failed).toEqual([
      { id: job, outcome: 'invalid', message: expect.stringMatching(/no call mapping .*"qf.ok".*nothing was taken/) },
    ]);
    expect(await statusOf(job)).toBe('pending');

    await save(BACK);
    const r = await mw!.moveWaiting('qf', 'celery', [job], BY);
    expect(r.failed).toEqual([]);
    expect(r.succeeded).toEqual([
      { id: job, outcome: 'ok', taskId: job, message: expect.stringMatching(/^created on Celery \(as task .*\); taken from QueueFlow$/) },
    ]);
    await movedOnce(outC, job);
    expect(ranOn(outC, job)).toEqual({
      system: 'celery',
      args: [
        ['int', String(payload.n)],
        ['str', "'p'"],
      ],
      kwargs: { extra: ['bool', 'True'] },
    });
    // No longer pending: a second move takes and sends nothing.
    expect((await mw!.moveWaiting('qf', 'celery', [job], BY)).failed[0]?.outcome).toBe('missing');
    expect(runsIn(outC, job)).toBe(1);
  }, 120_000);

  it('moves a pending job to potatoq with its own mapping; refuses one scheduled for later', async () => {
    await save({ ...BACK, source: 'sq', args: ['n'] });
    const { job, payload } = await pendingJob();
    const r = await mw!.moveWaiting('qf', 'sq', [job], BY);
    expect(r.succeeded).toEqual([{ id: job, outcome: 'ok', taskId: job, message: expect.stringMatching(/^created on potatoq SQLite/) }]);
    await movedOnce(outP, job);
    expect(ranOn(outP, job)).toMatchObject({
      args: [['int', String(payload.n)]],
      kwargs: { label: ['str', "'p'"], extra: ['bool', 'True'] },
    });

    const later = await call<{ job_id: string }>(s!, 'POST', '/api/v1/jobs', {
      body: {
        task_name: 'qf.ok',
        payload: { n: 99, label: 'l' },
        config: { queue: Q },
        run_at: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    const rl = await mw!.moveWaiting('qf', 'sq', [later.body.job_id], BY);
    expect(rl.failed).toEqual([
      { id: later.body.job_id, outcome: 'invalid', message: expect.stringMatching(/scheduled for .*would run early/) },
    ]);
    expect(await statusOf(later.body.job_id)).toBe('pending');
    await getAdapter('qf').revoke([later.body.job_id]);
  }, 120_000);

  it('a console killed (SIGKILL) between the cancel and the enqueue: the next move sends its held call, run once on Celery', async () => {
    await save(BACK);
    const { job } = await pendingJob();
    const c = spawn(
      path.join(ROOT, 'node_modules/.bin/vite-node'),
      ['--config', 'vitest.config.ts', 'tests/support/move-pending-child.ts'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          MOVE_FROM: 'qf',
          MOVE_TO: 'celery',
          MOVE_IDS: job,
          POTATOQ_CONSOLE_READ_TIMEOUT_MS: '1000',
          POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: '1000',
        },
      },
    );
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await until(
      'the child console to take the job',
      () => out.includes('holding'),
      60_000,
      () => out,
    );
    await new Promise<void>((res) => (c.on('exit', () => res()), c.kill('SIGKILL')));
    // Taken (cancelled here), sent nowhere yet: the call is held in the state store.
    expect(await statusOf(job)).toBe('cancelled');
    expect(await paused()).toBe(false);
    await new Promise((res) => setTimeout(res, 8_500));
    expect(runsIn(outC, job)).toBe(0);
    const r = await mw!.moveWaiting('qf', 'celery', [job], BY);
    expect(r.succeeded).toEqual([
      { id: job, outcome: 'ok', taskId: job, message: expect.stringMatching(/^after an earlier move .* by killed .*: created on Celery/) },
    ]);
    await movedOnce(outC, job);
  }, 150_000);

  it('two console processes moving the same pending job: one task on Celery, run once', async () => {
    await save(BACK);
    const { job } = await pendingJob();
    const outs = await Promise.all(
      ['ann', 'ben'].map((by) => spawnConsole('qf', job, by, { MOVE_STATE: 'waiting', MOVE_TO: 'celery' }).done),
    );
    const results = outs.map(result);
    expect(results.every(Boolean), outs.join('\n')).toBe(true);
    const outcomes = results.flatMap((x) => [...x!.succeeded, ...x!.failed].map((o) => o.outcome));
    expect(
      outcomes.filter((o) => o === 'ok'),
      outcomes.join(),
    ).toHaveLength(1);
    expect(
      outcomes.every((o) => ['ok', 'conflict', 'missing', 'already'].includes(o)),
      outcomes.join(),
    ).toBe(true);
    await movedOnce(outC, job);
  }, 120_000);

  it('jobs a QueueFlow worker leases after the move read them are refused (nothing cancelled or sent) and run there; moved ones never run there', async () => {
    await save(BACK);
    const { job } = await pendingJob();
    // qf.slow runs until it sees a cancel: leased, it is running when the take comes.
    const slow = (
      await call<{ job_id: string }>(s!, 'POST', '/api/v1/jobs', { body: { task_name: 'qf.slow', payload: {}, config: { queue: Q } } })
    ).body.job_id;
    const qf = getAdapter('qf');
    const reads = [await qf.peekWaitingValue!(job), await qf.peekWaitingValue!(slow)];
    expect(reads[0]?.letter).toMatchObject({ jobId: job, task: 'qf.ok', queue: Q });
    qw.start();
    const wlogs = () => `${logs()}\n${qw.log.slice(-1500)}`;
    await until('the QueueFlow worker to run them', () => qw.runs(job).length > 0 && qw.runs(slow).length > 0, 40_000, wlogs);
    expect(await qf.takeWaiting!(job, reads[0]!.claim)).toBe(false);
    expect(await qf.takeWaiting!(slow, reads[1]!.claim)).toBe(false);
    const r = await mw!.moveWaiting('qf', 'celery', [job], BY);
    expect(r.failed).toEqual([
      { id: job, outcome: 'missing', message: expect.stringMatching(/not waiting on QueueFlow .*nothing was sent/) },
    ]);
    // Past a heartbeat: the slow job was never cancelled under its worker.
    await new Promise((res) => setTimeout(res, 3_000));
    expect(await statusOf(job)).toBe('completed');
    expect(await statusOf(slow)).toBe('running');
    expect(qw.runs(slow).map((x) => x.outcome)).toEqual(['started']);
    expect(qw.runs(job).map((x) => x.outcome)).toEqual(['ok']);
    expect(runsIn(outC, job)).toBe(0);
    expect(await paused()).toBe(false);
    for (const m of moved) expect(qw.runs(m), m).toEqual([]);
  }, 120_000);
});
