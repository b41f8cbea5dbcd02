// Dead letters moved from Celery (Redis) and potatoq (SQLite) into QueueFlow through call
// mappings, with real components on both sides: a Celery 5.7 worker and a potatoq 26.1a8 worker
// make the letters, the real QueueFlow 0.6.0 server takes the jobs and its Python client's worker
// runs them. Exactly once: QueueFlow's Idempotency-Key (from the letter's id) after a console
// that stopped between the steps, and under two console processes moving the same letter. Redis
// dbs 11 (Celery broker) and 12 (backend), a SQLite broker file, a state store file and a
// QueueFlow server of this file's own.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable, redisDb, stopWorker } from '@/tests/brokers/celery/redis/support';
import { spawnCeleryWorker } from '@/tests/support/celery-worker';
import { PY_DIR } from '@/tests/support/postgres';
import { PYTHON } from '@/tests/support/potatoq-seeder';
import { runsIn } from '@/tests/support/runs-log';
import { SoloWorker } from '@/tests/support/solo-worker';
import { migratedDb } from '@/tests/support/sqlite-db';
import { call, PyWorker, ROOT, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';

const s = (await redisAvailable()) ? startQueueflow() : null;
const up = s !== null;
const Q = `mvqf-${process.pid}`;
const TQ = uniqueQueue('mvqf');
const C_BROKER = redisDb(11);
const C_BACKEND = redisDb(12);
const outC = fs.mkdtempSync(path.join(os.tmpdir(), 'mvqf-celery-'));
const outP = fs.mkdtempSync(path.join(os.tmpdir(), 'mvqf-potatoq-'));
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mvqf-state-'));
const sqliteFile = up ? migratedDb() : '';
const celeryEnv = { ...process.env, CT_BROKER: C_BROKER, CT_BACKEND: C_BACKEND, CT_OUT: outC, PYTHONUNBUFFERED: '1' };
const sqEnv = { ...process.env, MV_BROKER: `sqlite:///${sqliteFile}`, MV_OPTIONS: '{}', MV_OUT: outP, PYTHONUNBUFFERED: '1' };
if (s)
  Object.assign(process.env, {
    POTATOQ_CONSOLE_BROKERS: JSON.stringify([
      { id: 'celery', name: 'Celery', kind: 'celery', url: C_BROKER, resultBackend: C_BACKEND, inspectTimeoutMs: 300 },
      { id: 'sq', name: 'potatoq SQLite', url: `sqlite:///${sqliteFile}`, busyTimeoutMs: 2000 },
      { id: 'qf', name: 'QueueFlow', kind: 'queueflow', url: s.url, token: s.token },
      { id: 'qfro', name: 'QueueFlow RO', kind: 'queueflow', url: s.url, token: s.tokenRo },
      { id: 'qfdown', name: 'QueueFlow down', kind: 'queueflow', url: 'http://127.0.0.1:9', token: s.token, timeoutMs: 1000 },
    ]),
    POTATOQ_CONSOLE_STATE: path.join(stateDir, 'state.sqlite3'),
    POTATOQ_CONSOLE_READ_TIMEOUT_MS: '3000',
    POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: '6000',
  });
const move = await import('@/lib/brokers/move');
const service = await import('@/lib/brokers/service');
const { getAdapter, resetAdapters } = await import('@/lib/brokers/registry');
const { getMappingStore } = await import('@/lib/brokers/mapping/store');
const { previewMove } = await import('@/lib/brokers/mapping/preview');
const { jobOf, moveKey } = await import('@/lib/brokers/mapping/job');
const { getMoveJournal } = await import('@/lib/brokers/move-journal-open');
const { ZCallMapping } = await import('@/lib/brokers/mapping/schema');
const { serviceBackend } = await import('@/lib/bulk/backend');
const { BulkJob } = await import('@/lib/bulk/runner');
const { takeSnapshot } = await import('@/lib/bulk/snapshot');
const BY = { by: 'test' };

let celery: { proc: import('node:child_process').ChildProcess; log: () => string } | undefined;
const pq = new SoloWorker('mv_potatoq_app', PY_DIR, sqEnv);
let qfw: PyWorker;
const logs = () =>
  `celery:\n${celery?.log().slice(-1500)}\npotatoq:\n${pq.log.slice(-1500)}\nqueueflow worker:\n${qfw?.log.slice(-1500)}\nserver:\n${s?.log().slice(-1500)}`;

/** Celery's mv.fail with typed values, sent by Celery's own apply_async; its FAILURE id. */
async function celeryFailure(): Promise<string> {
  const id = execFileSync(
    PYTHON,
    [
      '-c',
      `import decimal, datetime, uuid, mv_celery_app as m
r = m.fail.apply_async(args=[7, "x", decimal.Decimal("1.50"), datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)],
                       kwargs={"u": uuid.UUID(int=5), "f": 2.5, "n": None}, queue=${JSON.stringify(Q)})
print(r.id)`,
    ],
    { cwd: PY_DIR, env: celeryEnv },
  )
    .toString()
    .trim();
  await until('the Celery failure', async () => (await service.getDead('celery', id).catch(() => null)) !== null, 30_000, logs);
  return id;
}

const MAPPING = {
  source: 'celery',
  target: 'qf',
  task: 'mv.fail',
  targetTask: 'qf.ok',
  queue: TQ,
  args: ['order', 'label', 'amount', 'at'],
  encodings: { decimal: 'text', datetime: 'iso8601', uuid: 'text' },
  retry: { maxRetries: 2 },
};
const PAYLOAD = {
  order: 7,
  label: 'x',
  amount: '1.50',
  at: '2026-01-02T03:04:05+00:00',
  u: '00000000-0000-0000-0000-000000000005',
  f: 2.5,
  n: null,
};
const save = async (m: Record<string, unknown>) => (await getMappingStore()).put(ZCallMapping.parse(m), 'test');

/** The jobs of the target queue created under `key` (read one by one: the list has no key filter). */
async function jobsWithKey(key: string): Promise<string[]> {
  const list = await call<{ jobs: Array<{ id: string }> }>(s!, 'GET', `/api/v1/jobs?queue=${TQ}&limit=100`);
  const out: string[] = [];
  for (const j of list.body.jobs) {
    const d = await call<{ idempotency_key?: string }>(s!, 'GET', `/api/v1/jobs/${j.id}`);
    if (d.body.idempotency_key === key) out.push(j.id);
  }
  return out;
}

/** A console process of its own moving `id` (tests/support/move-child.ts). */
function otherConsole(from: string, id: string, by: string): Promise<string> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/vite-node'), ['--config', 'vitest.config.ts', 'tests/support/move-child.ts'], {
    cwd: ROOT,
    env: { ...process.env, MOVE_FROM: from, MOVE_TO: 'qf', MOVE_IDS: id, MOVE_BY: by },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((res) => child.on('exit', () => res(out)));
}

describe.skipIf(!up)('moving dead letters into QueueFlow through call mappings, with real workers on both sides', () => {
  beforeAll(async () => {
    celery = spawnCeleryWorker(celeryEnv, [Q], `mvqf-${Q}`, ['-P', 'solo'], 'mv_celery_app');
    pq.start([Q]);
    qfw = new PyWorker(s!, TQ);
    qfw.start();
    await until('the Celery worker', async () => (await service.listWorkers('celery')).length > 0, 60_000, logs);
  }, 90_000);

  afterAll(async () => {
    if (celery) await stopWorker(celery.proc);
    await pq.stop();
    await qfw?.stop();
    await resetAdapters();
    s?.stop();
    for (const d of [outC, outP, stateDir, path.dirname(sqliteFile)]) if (d) fs.rmSync(d, { recursive: true, force: true });
  }, 60_000);

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
    // The job's page says which letter it came from.
    expect((await service.getTask('qf', jobId!)).payload.fields).toContainEqual({
      name: 'moved_from',
      value: { t: 'str', v: `letter ${id}, moved here by the console (its audit trail has the move)` },
    });
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
    const row = {
      source: 'celery',
      id,
      target: 'qf',
      moveId: 'crashed',
      at: new Date().toISOString(),
      who: 'olga',
      auditId: null,
      untilMs: 1,
      note: null,
    };
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
