// Dead letters moved from Celery (Redis) and potatoq (SQLite) into QueueFlow through call
// mappings, with real components on both sides: a Celery 5.7 worker and a potatoq 26.1a8 worker
// make the letters, the real QueueFlow 0.6.0 server takes the jobs and its Python client's worker
// runs them. Exactly once: QueueFlow's Idempotency-Key (from the letter's id) after a console
// that stopped between the steps, and under two console processes moving the same letter. Redis
// dbs 11 (Celery broker) and 12 (backend), a SQLite broker file, a state store file and a
// QueueFlow server of this file's own.
// int-lane: owns redis/11 redis/12; uses redis/13 (the rig: Celery on dbs 11 and 12; potatoq under a prefix)
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PY_DIR } from '@/tests/support/postgres';
import { PYTHON } from '@/tests/support/potatoq-seeder';
import { runsIn } from '@/tests/support/runs-log';
import { call, until } from '@/tests/queueflow/support';
import {
  BulkJob,
  BY,
  celeryFailure,
  getAdapter,
  getMoveJournal,
  jobOf,
  jobsWithKey,
  logs,
  MAPPING,
  move,
  moveKey,
  otherConsole,
  outC,
  outP,
  PAYLOAD,
  previewMove,
  Q,
  qfw,
  s,
  save,
  service,
  serviceBackend,
  sqEnv,
  startWorkers,
  stoppedMove,
  stopWorkers,
  takeSnapshot,
  TQ,
  up,
  ZCallMapping,
} from '@/tests/support/move-qf-rig';

describe.skipIf(!up)('moving dead letters into QueueFlow through call mappings, with real workers on both sides', () => {
  beforeAll(startWorkers, 90_000);
  afterAll(stopWorkers, 60_000);

  it('offers QueueFlow as a target through call mappings, and says why not with a read-only token or a server that is down', async () => {
    const by = Object.fromEntries((await move.moveTargets('celery')).map((t) => [t.id, t.pairing]));
    expect(by.qf).toEqual({ on: true, mapped: true, does: expect.stringMatching(/through the call mapping of its name/) });
    expect(by.qfro).toEqual({ on: false, why: expect.stringMatching(/^QueueFlow RO cannot take new tasks: /) });
    expect(by.qfdown).toEqual({ on: false, why: expect.stringMatching(/^QueueFlow down cannot be reached/) });
    for (const to of ['qfro', 'qfdown'])
      await expect(move.moveDead('celery', to, ['x'], BY)).rejects.toMatchObject({ code: 'Unsupported' });
  });

  it('refuses a letter its mapping cannot convert (per field, nothing moved), previews it, then moves it once', async () => {
    const id = await celeryFailure();
    // No mapping: refused, named.
    const none = await move.moveDead('celery', 'qf', [id], BY);
    expect(none.failed).toEqual([{ id, outcome: 'invalid', message: expect.stringMatching(/task "mv.fail" has no call mapping/) }]);
    // A mapping with no encoding for UUIDs, and one naming a positional argument the letter lacks.
    await save({ ...MAPPING, encodings: { decimal: 'text', datetime: 'iso8601' } });
    const noUuid = await move.moveDead('celery', 'qf', [id], BY);
    expect(noUuid.failed[0]).toMatchObject({
      outcome: 'invalid',
      message: expect.stringMatching(/kwargs\.u: a UUID: JSON cannot hold it/),
    });
    await save({ ...MAPPING, args: [...MAPPING.args, 'extra'] });
    const lacks = await move.moveDead('celery', 'qf', [id], BY);
    expect(lacks.failed[0]?.message).toMatch(/args\[4\]: the letter has 4 positional arguments, none at index 4 for payload key "extra"/);
    expect((await previewMove('celery', 'qf', [id])).items[0]?.problems).toEqual({ 'args[4]': expect.any(String) });
    expect(await service.getDead('celery', id)).not.toBeNull();
    expect(await jobsWithKey(moveKey(id))).toEqual([]);

    await save(MAPPING);
    const p = await previewMove('celery', 'qf', [id]);
    expect(p.keyed).toMatch(/Idempotency-Key/);
    expect(p.items[0]).toMatchObject({
      problems: {},
      source: { task: 'mv.fail', queue: Q, args: expect.stringMatching(/^\[7, 'x', Decimal\('1.50'\)/) },
      job: { task: 'qf.ok', queue: TQ, payload: PAYLOAD, key: moveKey(id), retry: { maxRetries: 2 }, runAt: null },
    });

    const r = await move.moveDead('celery', 'qf', [id], BY);
    expect(r.failed).toEqual([]);
    const jobId = r.succeeded[0]?.taskId;
    expect(r.succeeded).toEqual([
      {
        id,
        outcome: 'ok',
        taskId: expect.any(String),
        message: expect.stringMatching(/^enqueued on QueueFlow \(as job [0-9a-f-]+; encoded .*\); removed from Celery$/),
      },
    ]);
    expect(await service.getDead('celery', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    await until('the QueueFlow worker to run it', async () => qfw.runs(jobId!).length > 0, 40_000, logs);
    expect(qfw.runs(jobId!)).toEqual([expect.objectContaining({ task: 'qf.ok', outcome: 'ok', payload: PAYLOAD })]);
    const job = (await call<{ config: { max_retries: number }; idempotency_key: string }>(s!, 'GET', `/api/v1/jobs/${jobId}`)).body;
    expect(job).toMatchObject({ idempotency_key: moveKey(id), config: { max_retries: 2 } });
    // Moved, so no longer a letter here; never ran on Celery.
    expect((await move.moveDead('celery', 'qf', [id], BY)).failed[0]?.outcome).toBe('missing');
    expect(runsIn(outC, id)).toBe(0);
    expect(await jobsWithKey(moveKey(id))).toEqual([jobId]);
  }, 120_000);

  it('a console that stopped after creating the job: the next move gets the same job back ("already there") and removes the letter', async () => {
    await save(MAPPING);
    const id = await celeryFailure();
    // The stopped console's steps, as it made them: the journal row first, then the job.
    const journal = await getMoveJournal();
    const row = stoppedMove('celery', id, 'qf');
    expect(await journal.begin(row)).toEqual({ won: true });
    const mapped = jobOf(ZCallMapping.parse(MAPPING), (await getAdapter('celery').exportCall!(id))!);
    const first = await getAdapter('qf').importValue!(mapped.ok ? mapped.job : (undefined as never));
    await until('the QueueFlow worker to run it', async () => qfw.runs(first.taskId).length > 0, 40_000, logs);

    const r = await move.moveDead('celery', 'qf', [id], BY);
    expect(r.succeeded).toEqual([
      {
        id,
        outcome: 'already',
        taskId: first.taskId,
        message: expect.stringMatching(
          new RegExp(`^sent again after a move .* by olga .*already there as job ${first.taskId}.*removed from Celery$`),
        ),
      },
    ]);
    expect(await journal.get('celery', id)).toBeNull();
    expect(await service.getDead('celery', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    await new Promise((res) => setTimeout(res, 2000));
    expect(qfw.runs(first.taskId)).toHaveLength(1);
    expect(await jobsWithKey(moveKey(id))).toEqual([first.taskId]);
    expect(runsIn(outC, id)).toBe(0);
  }, 120_000);

  it('two console processes moving the same potatoq dead letter at once: one job, run once, never on potatoq', async () => {
    await save({ source: 'sq', target: 'qf', task: 'mv.fail', targetTask: 'qf.ok', queue: TQ, args: ['n', 's'] });
    const id = execFileSync(
      PYTHON,
      ['-c', `import mv_potatoq_app as m\nprint(m.fail.apply_async(args=[1, "a"], kwargs={"k": True}, queue=${JSON.stringify(Q)}).id)`],
      {
        cwd: PY_DIR,
        env: sqEnv,
      },
    )
      .toString()
      .trim();
    await until('the potatoq dead letter', async () => (await service.getDead('sq', id).catch(() => null)) !== null, 30_000, logs);
    const outs = await Promise.all([otherConsole('sq', id, 'ann'), otherConsole('sq', id, 'ben')]);
    const results = outs.map(
      (o) =>
        JSON.parse(/RESULT (.*)/.exec(o)?.[1] ?? 'null') as {
          succeeded: Array<{ outcome: string; taskId?: string }>;
          failed: Array<{ outcome: string }>;
        } | null,
    );
    expect(results.every(Boolean), outs.join('\n')).toBe(true);
    const outcomes = results.flatMap((x) => [...x!.succeeded, ...x!.failed].map((o) => o.outcome)).sort();
    // The journal lets one through; the other is told it is being moved, or finds it gone or there.
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(
      outcomes.every((o) => ['ok', 'conflict', 'missing', 'already'].includes(o)),
      outcomes.join(),
    ).toBe(true);
    const jobs = await jobsWithKey(moveKey(id));
    expect(jobs).toHaveLength(1);
    await until('the QueueFlow worker to run it', async () => qfw.runs(jobs[0]!).length > 0, 40_000, logs);
    expect(qfw.runs(jobs[0]!)).toEqual([expect.objectContaining({ payload: { n: 1, s: 'a', k: true } })]);
    expect(await service.getDead('sq', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    expect(runsIn(outP, id)).toBe(0);
  }, 120_000);
  it('moves all matching Celery failures into QueueFlow as a bulk job, one job each, each run once', async () => {
    await save(MAPPING);
    const ids = [await celeryFailure(), await celeryFailure()];
    const filter = { queue: Q, task: 'mv.fail', to: 'qf' };
    const backend = serviceBackend('celery', 'move', filter);
    const job = new BulkJob({ brokerId: 'celery', action: 'move', filter, snapshot: await takeSnapshot(backend), backend });
    expect(new Set(job.snapshotIds())).toEqual(new Set(ids));
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'done', progress: { total: 2, succeeded: 2, skipped: 0, failed: 0 } });
    for (const id of ids) {
      const [jobId] = await jobsWithKey(moveKey(id));
      expect(await jobsWithKey(moveKey(id))).toHaveLength(1);
      await until('the QueueFlow worker to run it', async () => qfw.runs(jobId!).length > 0, 40_000, logs);
      expect(qfw.runs(jobId!)).toEqual([expect.objectContaining({ payload: PAYLOAD })]);
      expect(await service.getDead('celery', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    }
  }, 120_000);
});
