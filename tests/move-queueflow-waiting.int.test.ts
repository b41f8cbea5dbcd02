// Waiting Celery tasks (Redis) moved into QueueFlow through call mappings, with real components:
// Celery 5.7's own apply_async writes the messages (to a queue no Celery worker consumes, and to
// one a worker does), the real QueueFlow 0.6.0 server takes the jobs, its Python client's worker
// runs them. Exactly once: a console process killed with SIGKILL mid-move and a second pass, and
// two console processes moving the same task; a whole queue as a bulk job. Shares
// tests/support/move-qf-rig.ts (its brokers, state store and workers) with move-queueflow.int.test.ts.
// int-lane: owns redis/11 redis/12; uses redis/13 (the rig: Celery on dbs 11 and 12; potatoq under a prefix)
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PY_DIR } from '@/tests/support/postgres';
import { PYTHON } from '@/tests/support/potatoq-seeder';
import { lostReplies } from '@/tests/support/lost-replies';
import { runsIn } from '@/tests/support/runs-log';
import { call, until } from '@/tests/queueflow/support';
import { SoloWorker } from '@/tests/support/solo-worker';
import {
  BulkJob,
  BY,
  C_BROKER,
  celeryEnv,
  getAdapter,
  getMoveJournal,
  jobsWithKey,
  logs,
  moveKey,
  outC,
  outP,
  pgEnv,
  pgT,
  prEnv,
  previewMove,
  Q,
  qfw,
  s,
  save,
  serviceBackend,
  sqEnv,
  spawnConsole,
  startWorkers,
  stopWorkers,
  takeSnapshot,
  TQ,
  up,
} from '@/tests/support/move-qf-rig';

const mw = up ? await import('@/lib/brokers/move-waiting') : null;
/** A queue no Celery worker consumes: its tasks wait. */
const W = `${Q}-waiting`;
const MAP = { source: 'celery', target: 'qf', task: 'mv.record', targetTask: 'qf.ok', queue: TQ, args: ['n', 's'] };
type Result = {
  succeeded: Array<{ id: string; outcome: string; message: string; taskId?: string }>;
  failed: Array<{ id: string; outcome: string }>;
};

/** Celery's apply_async of mv.record(n, "w<n>") to `queue`, `extra` its options; the ids. */
function sendCelery(queue: string, ns: number[], extra = ''): string[] {
  const py = `import mv_celery_app as m\nfor n in ${JSON.stringify(ns)}:\n    print(m.record.apply_async(args=[n, f"w{n}"], queue=${JSON.stringify(queue)}${extra}).id)`;
  return execFileSync(PYTHON, ['-c', py], { cwd: PY_DIR, env: celeryEnv }).toString().trim().split('\n');
}

const waiting = (id: string) => getAdapter('celery').peekWaiting!(id);
const result = (out: string) => JSON.parse(/RESULT (.*)/.exec(out)?.[1] ?? 'null') as Result | null;

/** Each id: one job under its key, run once by QueueFlow's worker with the mapped payload, not
 *  waiting on Celery, never run there, no move journal row left. */
async function expectMovedOnce(ids: string[], ns: number[]) {
  const journal = await getMoveJournal();
  for (const [i, id] of ids.entries()) {
    const jobs = await jobsWithKey(moveKey(id));
    expect(jobs, id).toHaveLength(1);
    await until('the QueueFlow worker to run it', async () => qfw.runs(jobs[0]!).length > 0, 40_000, logs);
    expect(qfw.runs(jobs[0]!)).toEqual([expect.objectContaining({ task: 'qf.ok', payload: { n: ns[i], s: `w${ns[i]}` } })]);
    expect(await waiting(id)).toBeNull();
    expect(await journal.get('celery', id)).toBeNull();
    expect(runsIn(outC, id)).toBe(0);
  }
}

/** potatoq's apply_async of mv.record(n, "w<n>") per [queue, n, extra options], on `env`'s broker; the ids. */
function sendPotatoq(env: NodeJS.ProcessEnv, sends: Array<[string, number, string]>): string[] {
  const py = sends.map(([q, n, extra]) => `print(m.record.apply_async(args=[${n}, "w${n}"], queue=${JSON.stringify(q)}${extra}).id)`);
  return execFileSync(PYTHON, ['-c', `import mv_potatoq_app as m\n${py.join('\n')}`], { cwd: PY_DIR, env })
    .toString()
    .trim()
    .split('\n');
}

/** A ready task (to W, no worker) and one scheduled 12 s ahead (to Q, where `from`'s worker
 *  listens) moved: each one job run once on QueueFlow with the mapped payload, the scheduled one
 *  at its run_at; gone from `from`, taken by the move, never run there. */
async function movesPotatoqWaiting(from: string, name: string, env: NodeJS.ProcessEnv, n: number) {
  await save({ ...MAP, source: from });
  const [ready, later] = sendPotatoq(env, [
    [W, n, ''],
    [Q, n + 1, ', countdown=12'],
  ]) as [string, string];
  const before = Date.now();
  const r = await mw!.moveWaiting(from, 'qf', [ready, later], BY);
  expect(r.failed).toEqual([]);
  expect(r.succeeded.map((o) => o.message)).toEqual([
    expect.stringMatching(new RegExp(`^created on QueueFlow .*; taken from ${name}$`)),
    expect.stringMatching(/^created on QueueFlow /),
  ]);
  const job = (await call<{ scheduled_at: string }>(s!, 'GET', `/api/v1/jobs/${r.succeeded[1]!.taskId}`)).body;
  expect(Date.parse(job.scheduled_at)).toBeGreaterThan(before + 5_000);
  for (const [id, k] of [
    [ready, n],
    [later, n + 1],
  ] as const) {
    const jobs = await jobsWithKey(moveKey(id));
    expect(jobs).toHaveLength(1);
    await until('the QueueFlow worker to run it', async () => qfw.runs(jobs[0]!).length > 0, 40_000, logs);
    expect(qfw.runs(jobs[0]!)).toEqual([expect.objectContaining({ payload: { n: k, s: `w${k}` } })]);
    expect(await getAdapter(from).peekWaiting!(id)).toBeNull();
  }
  // Past its eta, and the potatoq worker on its queue still never ran it.
  await new Promise((res) => setTimeout(res, 3_000));
  expect(runsIn(outP, later)).toBe(0);
  expect(await getAdapter(from).tookWaiting!(later)).toBe(true);
}

describe.skipIf(!up)('moving waiting Celery tasks into QueueFlow, with real workers on both sides', () => {
  beforeAll(startWorkers, 90_000);
  afterAll(stopWorkers, 60_000);

  it('says which pairs move waiting tasks, and why not', async () => {
    expect(await mw!.waitingPairing('celery', 'qf')).toEqual({ on: true, does: expect.stringMatching(/atomic step.*run_at/s) });
    expect(await mw!.waitingPairing('sq', 'qf')).toEqual({ on: true, does: expect.stringMatching(/one transaction/) });
    // The way back (pending QueueFlow jobs): tests/move-queueflow-pending.int.test.ts.
    expect(await mw!.waitingPairing('qf', 'celery')).toMatchObject({ on: true });
    expect(await mw!.waitingPairing('celery', 'sq')).toMatchObject({ on: false });
    await expect(mw!.moveWaiting('celery', 'qfro', ['x'], BY)).rejects.toMatchObject({ code: 'Unsupported' });
  });

  it('moves a waiting task with a future eta: the job runs once at its run_at with the mapped payload; no mapping: refused, left waiting', async () => {
    const eta = new Date(Date.now() + 15_000);
    const [id] = sendCelery(
      W,
      [3],
      `, eta=__import__("datetime").datetime.fromtimestamp(${eta.getTime() / 1000}, __import__("datetime").timezone.utc)`,
    );
    const none = await mw!.moveWaiting('celery', 'qf', [id!], BY);
    expect(none.failed).toEqual([
      { id, outcome: 'invalid', message: expect.stringMatching(/task "mv.record" has no call mapping.*nothing was taken/) },
    ]);
    expect((await waiting(id!))?.call).toMatchObject({ task: 'mv.record', etaMs: eta.getTime() });

    await save(MAP);
    // The preview reads it without taking it: the exact job, its eta as run_at.
    const p = await previewMove('celery', 'qf', [id!, 'no-such-task'], 'waiting');
    expect(p.items[0]).toMatchObject({
      problems: {},
      job: { task: 'qf.ok', payload: { n: 3, s: 'w3' }, key: moveKey(id!), runAt: eta.toISOString() },
    });
    expect(p.items[1]?.problems).toEqual({ id: 'not a waiting task on Celery' });
    expect(await waiting(id!)).not.toBeNull();
    const r = await mw!.moveWaiting('celery', 'qf', [id!], BY);
    expect(r.failed).toEqual([]);
    expect(r.succeeded).toEqual([
      { id, outcome: 'ok', taskId: expect.any(String), message: expect.stringMatching(/^created on QueueFlow .*; taken from Celery$/) },
    ]);
    const job = (await call<{ scheduled_at: string; idempotency_key: string }>(s!, 'GET', `/api/v1/jobs/${r.succeeded[0]!.taskId}`)).body;
    expect(job.idempotency_key).toBe(moveKey(id!));
    expect(Math.abs(Date.parse(job.scheduled_at) - eta.getTime())).toBeLessThan(1000);
    await expectMovedOnce([id!], [3]);
    expect(Date.now()).toBeGreaterThanOrEqual(eta.getTime() - 1000);
    // Moved: no longer waiting here.
    expect((await mw!.moveWaiting('celery', 'qf', [id!], BY)).failed[0]?.outcome).toBe('missing');
  }, 120_000);

  it('refuses a task a Celery worker already took (reserved until its eta), sending nothing', async () => {
    await save(MAP);
    const [id] = sendCelery(Q, [4], ', countdown=300');
    await until('the Celery worker to reserve it', async () => (await waiting(id!)) === null, 30_000, logs);
    const r = await mw!.moveWaiting('celery', 'qf', [id!], BY);
    expect(r.failed).toEqual([{ id, outcome: 'missing', message: expect.stringMatching(/not waiting on Celery \(a worker took it/) }]);
    expect(await jobsWithKey(moveKey(id!))).toEqual([]);
    await getAdapter('celery').revoke([id!]);
  }, 60_000);

  it('a console killed with SIGKILL mid-move, then a second pass: every task on QueueFlow once, none left on Celery', async () => {
    await save(MAP);
    const ns = Array.from({ length: 40 }, (_, i) => 100 + i);
    const ids = sendCelery(W, ns);
    // The child reaches QueueFlow through a gate that loses the replies to its job creations:
    // QueueFlow creates each job, the child never hears so. Killed once that has happened, it
    // leaves at least one move sent and not recorded as sent (its journal row and held call),
    // whatever the machine's speed; a kill timed on the queue's length alone can land between
    // two whole moves and leave nothing to finish.
    const gate = await lostReplies(s!.url, (req) => req.method === 'POST' && req.url === '/api/v1/jobs');
    const brokers = (JSON.parse(process.env.POTATOQ_CONSOLE_BROKERS!) as Array<{ id: string; url: string }>).map((b) =>
      b.id === 'qf' ? { ...b, url: gate.url } : b,
    );
    // Short timeouts in the child: its journal rows' lease passes soon after the kill.
    const c = spawnConsole('celery', ids.join(','), 'killed', {
      MOVE_STATE: 'waiting',
      POTATOQ_CONSOLE_BROKERS: JSON.stringify(brokers),
      POTATOQ_CONSOLE_READ_TIMEOUT_MS: '1000',
      POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: '1000',
    });
    try {
      await until(
        'the child to send a job it never hears back about',
        async () => gate.lost() > 0 || c.child.exitCode !== null,
        60_000,
        c.out,
      );
      expect(c.child.exitCode, c.out()).toBeNull();
      c.child.kill('SIGKILL');
      await c.done;
    } finally {
      await gate.close();
    }
    const redis = new Redis(C_BROKER);
    try {
      // Killed with most of them still waiting: this pass moves those the ordinary way.
      expect(await redis.llen(W)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
    await new Promise((res) => setTimeout(res, 8_500));
    const r = await mw!.moveWaiting('celery', 'qf', ids, BY);
    const moved = new Set([...r.succeeded.map((o) => o.id)]);
    // Every one is on QueueFlow after this pass: none is left 'missing' or failed.
    expect(r.failed, JSON.stringify(r.failed)).toEqual([]);
    expect(moved.size).toBe(ids.length);
    // The job the child created and never heard of: finished here, and not created twice.
    expect(r.succeeded.filter((o) => o.message.startsWith('after an earlier move')).length, JSON.stringify(r)).toBeGreaterThan(0);
    expect(
      r.succeeded.some((o) => /already there as job/.test(o.message)),
      JSON.stringify(r),
    ).toBe(true);
    await expectMovedOnce(ids, ns);
  }, 180_000);

  it('moves potatoq (SQLite) waiting tasks, ready and scheduled: each runs once on QueueFlow, the scheduled one at its run_at, never on potatoq', async () => {
    await movesPotatoqWaiting('sq', 'potatoq SQLite', sqEnv, 30);
  }, 120_000);

  // PostgreSQL and Redis: the same, with a potatoq worker of their own on the queue; a task that
  // worker already took is refused per id, nothing created on QueueFlow.
  for (const [id, name, env, n] of [
    ['pg', 'potatoq PG', pgEnv, 40],
    ['pr', 'potatoq Redis', prEnv, 50],
  ] as const)
    it.skipIf(id === 'pg' && !pgT)(
      `moves ${name} waiting tasks once, never run there; a task its worker took is refused`,
      async () => {
        const w = new SoloWorker('mv_potatoq_app', PY_DIR, env);
        w.start([Q]);
        try {
          const [taken] = sendPotatoq(env, [[Q, n + 2, '']]);
          await until(
            `the ${name} worker to run it`,
            async () => runsIn(outP, taken!) === 1,
            40_000,
            () => w.log,
          );
          await movesPotatoqWaiting(id, name, env, n);
          const r = await mw!.moveWaiting(id, 'qf', [taken!], BY);
          expect(r.failed).toEqual([
            expect.objectContaining({ id: taken, outcome: 'missing', message: expect.stringMatching(/not waiting/) }),
          ]);
          expect(await jobsWithKey(moveKey(taken!))).toEqual([]);
          expect(await getAdapter(id).tookWaiting!(taken!)).toBe(false);
        } finally {
          await w.stop();
        }
      },
      150_000,
    );

  it('potatoq on RabbitMQ does not offer waiting moves, and says why', async () => {
    expect(await mw!.waitingPairing('pmq', 'qf')).toEqual({
      on: false,
      why: expect.stringMatching(/basic\.get.*exact task cannot be taken/s),
    });
    await expect(mw!.moveWaiting('pmq', 'qf', ['x'], BY)).rejects.toMatchObject({ code: 'Unsupported' });
  });

  it('moves every waiting task of a Celery queue into QueueFlow as a bulk job, in batches: each run once there, none left', async () => {
    await save(MAP);
    const ns = [60, 61, 62, 63, 64];
    const ids = sendCelery(`${W}-bulk`, ns); // a queue of its own: the job takes exactly these
    const [other] = sendCelery(W, [65]);
    const filter = { queue: `${W}-bulk`, to: 'qf' };
    const backend = serviceBackend('celery', 'move-waiting', filter);
    const snapshot = await takeSnapshot(backend);
    const job = new BulkJob({ brokerId: 'celery', action: 'move-waiting', filter, snapshot, backend, batchSize: 2 });
    expect(new Set(job.snapshotIds())).toEqual(new Set(ids));
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'done', progress: { total: 5, succeeded: 5, skipped: 0, failed: 0, batches: 3 } });
    await expectMovedOnce(ids, ns);
    // Another queue's task is not in the snapshot: still waiting on Celery, nothing on QueueFlow.
    expect(await waiting(other!)).not.toBeNull();
    expect(await jobsWithKey(moveKey(other!))).toEqual([]);
    await getAdapter('celery').revoke([other!]);
  }, 120_000);

  it('two console processes moving the same waiting task: one job, run once, never on Celery', async () => {
    await save(MAP);
    const [id] = sendCelery(W, [20]);
    const outs = await Promise.all(['ann', 'ben'].map((by) => spawnConsole('celery', id!, by, { MOVE_STATE: 'waiting' }).done));
    const results = outs.map(result);
    expect(results.every(Boolean), outs.join('\n')).toBe(true);
    const outcomes = results.flatMap((x) => [...x!.succeeded, ...x!.failed].map((o) => o.outcome)).sort();
    expect(
      outcomes.filter((o) => o === 'ok'),
      outcomes.join(),
    ).toHaveLength(1);
    expect(
      outcomes.every((o) => ['ok', 'conflict', 'missing', 'already'].includes(o)),
      outcomes.join(),
    ).toBe(true);
    await expectMovedOnce([id!], [20]);
  }, 120_000);
});
