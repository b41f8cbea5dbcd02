// The migration view and the moves ledger with real components on both sides: a Celery 5.7
// worker on Redis (dbs 1 and 6, used by no other suite, emptied first) and a potatoq worker on SQLite make the failures, the real
// QueueFlow 0.6.0 server takes the moved jobs and its Python client's worker runs them (and
// dead-letters a task it has no handler for, in its own words). Nothing here is mocked.
// int-lane: owns redis/1 redis/6; uses redis/13 (the rig: Celery on dbs 1 and 6, flushed; potatoq under a prefix)
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.MVQF_REDIS_DBS = '1,6';
});

const rig = await import('@/tests/support/move-qf-rig');
const { BY, MAPPING, Q, TQ, celeryFailure, logs, move, s, save, service, sqEnv, up } = rig;
const { call, until } = await import('@/tests/queueflow/support');
const { PYTHON } = await import('@/tests/support/potatoq-seeder');
const { PY_DIR } = await import('@/tests/support/postgres');
const { migrationView } = await import('@/lib/brokers/migration-read');
const { taskMoves } = await import('@/lib/actions/migration');
const { connectRedis } = await import('@/lib/transports/redis/server');

const IDLE = `${Q}-idle`;
const py = (code: string, env: NodeJS.ProcessEnv) => execFileSync(PYTHON, ['-c', code], { cwd: PY_DIR, env }).toString().trim();

/** A potatoq dead letter of mv.fail (the real potatoq worker ran it and it failed). */
async function potatoqFailure(): Promise<string> {
  const id = py(`import mv_potatoq_app as m\nprint(m.fail.apply_async(args=[1, "a"], queue=${JSON.stringify(Q)}).id)`, sqEnv);
  await until('the potatoq dead letter', async () => (await service.getDead('sq', id).catch(() => null)) !== null, 30_000, logs);
  return id;
}

describe.skipIf(!up)('the migration view of a pair of brokers, and where moved work went', () => {
  beforeAll(async () => {
    // The counts below are exact: nothing of an earlier run may be left in these two dbs.
    for (const url of [rig.C_BROKER, rig.C_BACKEND]) {
      const c = connectRedis(url);
      await c.flushdb();
      c.disconnect();
    }
    await rig.startWorkers();
  }, 90_000);
  afterAll(rig.stopWorkers, 60_000);

  it('counts waiting and failed tasks per name on both sides, with mappings and moves', async () => {
    await save(MAPPING);
    const [f1, f2] = [await celeryFailure(), await celeryFailure()];
    // A Celery task waiting on a queue no worker consumes, sent by Celery itself.
    py(`import mv_celery_app as m\nm.fail.apply_async(args=[1], queue=${JSON.stringify(IDLE)})`, rig.celeryEnv);
    // A QueueFlow job of the mapped name waiting on a queue no worker takes.
    await call(s!, 'POST', '/api/v1/jobs', { body: { task_name: 'qf.ok', queue: `${TQ}-idle`, payload: {} } });
    const before = await migrationView('celery', 'qf');
    expect(before.pairing).toMatchObject({ on: true });
    expect(before.rows.find((r) => r.task === 'mv.fail')).toEqual({
      task: 'mv.fail',
      targetTask: 'qf.ok',
      mapped: true,
      source: { waiting: { n: 1, atLeast: false }, dead: { n: 2, atLeast: false } },
      target: { waiting: { n: 1, atLeast: false }, dead: { n: 0, atLeast: false }, noHandler: { n: 0, atLeast: false } },
      moved: { ok: 0, already: 0 },
    });
    // QueueFlow's adapter tells "no handler" letters apart; Celery's (the other way round) does not: said, not zero.
    expect(before.target.notes.join()).not.toMatch(/no handler/);
    const back = await migrationView('qf', 'celery');
    expect(back.target.notes).toContain('its system does not tell letters that found no handler from other failures');
    expect(back.rows.find((x) => x.task === 'qf.ok')?.target.noHandler).toBeNull();

    const r = await move.moveDead('celery', 'qf', [f1!], { ...BY, auditId: 'audit-1' });
    const jobId = r.succeeded[0]?.taskId;
    expect(r.succeeded).toEqual([expect.objectContaining({ id: f1, outcome: 'ok', taskId: expect.any(String) })]);
    const after = await migrationView('celery', 'qf');
    expect(after.rows.find((x) => x.task === 'mv.fail')).toMatchObject({
      source: { dead: { n: 1 } },
      moved: { ok: 1, already: 0 },
    });
    expect(after.moves.entries).toEqual([
      { sourceId: f1, targetId: jobId, task: 'mv.fail', outcome: 'ok', at: expect.any(String), who: 'test', auditId: 'audit-1' },
    ]);
    // The letter still here is not in the ledger.
    expect(after.moves.entries.some((m) => m.sourceId === f2)).toBe(false);
  }, 120_000);

  it("a moved letter's page says where it went, the job's page where it came from", async () => {
    const id = await celeryFailure();
    const r = await move.moveDead('celery', 'qf', [id], BY);
    const jobId = r.succeeded[0]!.taskId!;
    // The letter is gone from Celery (its page's NotFound), and the ledger says where it is.
    expect(await service.getDead('celery', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    expect(await taskMoves('celery', id)).toEqual({
      to: [expect.objectContaining({ target: 'qf', targetId: jobId, otherName: 'QueueFlow', outcome: 'ok' })],
      from: [],
    });
    expect(await taskMoves('qf', jobId)).toEqual({
      to: [],
      from: [expect.objectContaining({ source: 'celery', sourceId: id, otherName: 'Celery' })],
    });
    await until('the QueueFlow worker to run it', async () => rig.qfw.runs(jobId).length > 0, 40_000, logs);
  }, 120_000);

  it("names the tasks QueueFlow's workers have no handler for, from a real dead-lettered job", async () => {
    // The mapping sends potatoq's mv.fail to a task the QueueFlow worker has no handler for.
    await save({ source: 'sq', target: 'qf', task: 'mv.fail', targetTask: 'qf.unhandled', queue: TQ, args: ['n', 's'] });
    const id = await potatoqFailure();
    const r = await move.moveDead('sq', 'qf', [id], BY);
    const jobId = r.succeeded[0]?.taskId;
    expect(jobId, JSON.stringify(r)).toBeTruthy();
    await until(
      'QueueFlow to dead-letter the job',
      async () => (await migrationView('sq', 'qf')).rows.find((x) => x.task === 'mv.fail')?.target.dead.n === 1,
      40_000,
      logs,
    );
    const letters = (
      await call<{ dead_letters: Array<{ job_id: string; reason: string; error_message: string }> }>(s!, 'GET', `/api/v1/dlq?queue=${TQ}`)
    ).body.dead_letters;
    // QueueFlow 0.6.0's own words for it (the Python worker reports it as not retryable).
    expect(letters.find((l) => l.job_id === jobId)).toMatchObject({
      reason: 'non_retryable',
      error_message: "no worker handler for task 'qf.unhandled'",
    });
    const row = (await migrationView('sq', 'qf')).rows.find((x) => x.task === 'mv.fail');
    expect(row).toMatchObject({
      targetTask: 'qf.unhandled',
      mapped: true,
      source: { dead: { n: 0 } },
      target: { dead: { n: 1 }, noHandler: { n: 1, atLeast: false } },
      moved: { ok: 1 },
    });
    // qf.ok's letters (none) and its handled runs are not counted as missing a handler.
    const view = await migrationView('celery', 'qf');
    expect(view.rows.find((x) => x.task === 'mv.fail')?.target.noHandler).toEqual({ n: 0, atLeast: false });
  }, 120_000);

  it('refuses a pair of the same broker or an unknown one, naming `to`', async () => {
    await expect(migrationView('celery', 'celery')).rejects.toMatchObject({ code: 'InvalidInput' });
    const { migrationFor } = await import('@/lib/actions/migration');
    await expect(migrationFor('celery', 'nope')).rejects.toMatchObject({ code: 'InvalidInput', fields: { to: expect.any(String) } });
  });
});
