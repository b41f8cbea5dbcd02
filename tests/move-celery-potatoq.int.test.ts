// Dead letters moved between Celery (Redis) and potatoq (PostgreSQL, SQLite) through the
// service, with real workers on both sides: a Celery 5.7 worker's FAILURE (result_extended)
// runs in a real potatoq 26.1a8 worker with the same arguments and types, a potatoq worker's
// dead letter runs in a real Celery worker, and a move that stopped between its two steps
// never runs the task twice (tests/move-journal.int.test.ts has the crashes). Redis dbs 4 (Celery broker) and 5
// (backend), a PostgreSQL schema and a SQLite file of this file's own; all removed afterwards.
// int-lane: owns redis/4 redis/5 (flushed before and after)
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '@/lib/transports/redis/server';
import { redisAvailable, redisDb, stopWorker } from '@/tests/brokers/celery/redis/support';
import { dropSchema, migratedSchema, PG_URL, pgAvailable, PY_DIR, type PgTarget } from '@/tests/support/postgres';
import { migratedDb } from '@/tests/support/sqlite-db';
import { runsIn } from '@/tests/support/runs-log';
import { spawnCeleryWorker } from '@/tests/support/celery-worker';
import { PYTHON } from '@/tests/support/potatoq-seeder';
import { SoloWorker, until } from '@/tests/support/solo-worker';

const up = (await redisAvailable()) && (await pgAvailable());
const Q = `mvq-${process.pid}`;
const C_BROKER = redisDb(4);
const C_BACKEND = redisDb(5);
const outC = fs.mkdtempSync(path.join(os.tmpdir(), 'mv-celery-'));
const outP = fs.mkdtempSync(path.join(os.tmpdir(), 'mv-potatoq-'));
const celeryEnv = { ...process.env, CT_BROKER: C_BROKER, CT_BACKEND: C_BACKEND, CT_OUT: outC, PYTHONUNBUFFERED: '1' };

let pg: PgTarget | undefined;
const sqliteFile = up ? migratedDb() : '';
if (up) {
  pg = migratedSchema('mv_');
  process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([
    { id: 'celery', name: 'Celery', kind: 'celery', url: C_BROKER, resultBackend: C_BACKEND, inspectTimeoutMs: 300 },
    { id: 'pg', name: 'potatoq PG', url: PG_URL, ...pg.options },
    { id: 'sq', name: 'potatoq SQLite', url: `sqlite:///${sqliteFile}`, busyTimeoutMs: 500 },
    // Never connected to for a move: its model refuses first.
    { id: 'crmq', name: 'Celery RMQ', kind: 'celery', url: 'amqp://guest:guest@127.0.0.1:5672/', resultBackend: C_BACKEND },
  ]);
}
const move = await import('@/lib/brokers/move');
const { serviceBackend } = await import('@/lib/bulk/backend');
const { BulkJob } = await import('@/lib/bulk/runner');
const { takeSnapshot } = await import('@/lib/bulk/snapshot');
const service = await import('@/lib/brokers/service');
const { getAdapter, resetAdapters } = await import('@/lib/brokers/registry');
const BY = { by: 'test' };

const pyEnv = (broker: string, options: Record<string, unknown> = {}) => ({
  ...process.env,
  MV_BROKER: broker,
  MV_OPTIONS: JSON.stringify(options),
  MV_OUT: outP,
  PYTHONUNBUFFERED: '1',
});
const pgEnv = () => pyEnv(PG_URL, pg!.options);
const sqEnv = () => pyEnv(`sqlite:///${sqliteFile}`);

/** A call with typed values, sent by the system's own producer (apply_async). */
const CALL = `import decimal, datetime, uuid
r = m.fail.apply_async(args=[7, "x", decimal.Decimal("1.50"), datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)],
                       kwargs={"u": uuid.UUID(int=5), "f": 2.5, "n": None}, queue=${JSON.stringify(Q)})
print(r.id)`;
const produce = (app: string, env: NodeJS.ProcessEnv, task = 'fail') =>
  execFileSync(PYTHON, ['-c', `import ${app} as m\n${CALL.replace('m.fail.', `m.${task}.`)}`], { cwd: PY_DIR, env })
    .toString()
    .trim();

const EXPECTED = {
  args: [
    ['int', '7'],
    ['str', "'x'"],
    ['Decimal', "Decimal('1.50')"],
    ['datetime', 'datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)'],
  ],
  kwargs: { u: ['UUID', "UUID('00000000-0000-0000-0000-000000000005')"], f: ['float', '2.5'], n: ['NoneType', 'None'] },
};
const ran = (out: string, id: string) => {
  const f = path.join(out, `${id}.json`);
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { system: string; args: unknown; kwargs: unknown }) : null;
};
const runs = runsIn;
const allow = (out: string, yes: boolean) =>
  yes ? fs.writeFileSync(path.join(out, 'ok'), '1') : fs.rmSync(path.join(out, 'ok'), { force: true });

let celery: { proc: ChildProcess; log: () => string } | undefined;
const pgWorker = new SoloWorker('mv_potatoq_app', PY_DIR, up ? pgEnv() : process.env);
const sqWorker = new SoloWorker('mv_potatoq_app', PY_DIR, up ? sqEnv() : process.env);
const logs = () => `celery:\n${celery?.log().slice(-3000)}\npg:\n${pgWorker.log.slice(-2000)}\nsqlite:\n${sqWorker.log.slice(-2000)}`;

async function flush() {
  for (const url of [C_BROKER, C_BACKEND]) {
    const c = connectRedis(url);
    await c.flushdb();
    c.disconnect();
  }
}

/** A FAILURE written by the real Celery worker. */
async function celeryFailure(): Promise<string> {
  allow(outC, false);
  const id = produce('mv_celery_app', celeryEnv);
  await until('the Celery failure', async () => (await service.getDead('celery', id).catch(() => null)) !== null, 30_000, logs);
  return id;
}

/** A dead letter written by the real potatoq worker of `broker`. */
async function potatoqLetter(broker: 'pg' | 'sq', task: 'fail' | 'quiet' = 'fail'): Promise<string> {
  allow(outP, false);
  const id = produce('mv_potatoq_app', broker === 'pg' ? pgEnv() : sqEnv(), task);
  await until('the potatoq dead letter', async () => (await service.getDead(broker, id).catch(() => null)) !== null, 30_000, logs);
  return id;
}

describe.skipIf(!up)('moving dead letters between Celery and potatoq with real workers', () => {
  beforeAll(async () => {
    await flush();
    celery = spawnCeleryWorker(celeryEnv, [Q], `mv-${Q}`, ['-P', 'solo'], 'mv_celery_app');
    pgWorker.start([Q]);
    sqWorker.start([Q]);
    await until('the Celery worker', async () => (await service.listWorkers('celery')).length > 0, 60_000, logs);
  }, 90_000);

  afterAll(async () => {
    if (celery) await stopWorker(celery.proc);
    await Promise.all([pgWorker.stop(), sqWorker.stop()]);
    await resetAdapters();
    await flush();
    if (pg) await dropSchema(pg.schema);
    for (const d of [outC, outP, path.dirname(sqliteFile)]) if (d) fs.rmSync(d, { recursive: true, force: true });
  }, 60_000);

  it('offers only the brokers of the same call model, and says why not for the others', async () => {
    const targets = await move.moveTargets('celery');
    const by = Object.fromEntries(targets.map((t) => [t.id, t.pairing]));
    expect(by.pg?.on).toBe(true);
    expect(by.sq?.on).toBe(true);
    expect(by.crmq).toEqual({
      on: false,
      why: expect.stringMatching(/^Celery RMQ cannot take calls from another broker: RabbitMQ cannot look/),
    });
  });

  it.each(['pg', 'sq'] as const)(
    'moves a Celery failure to potatoq (%s), where a real worker runs it with the same arguments and types',
    async (to) => {
      const id = await celeryFailure();
      allow(outP, true);
      const r = await move.moveDead('celery', to, [id], BY);
      expect(r.failed).toEqual([]);
      expect(r.succeeded).toEqual([{ id, outcome: 'ok', message: expect.stringMatching(/^enqueued on potatoq .*; removed from Celery$/) }]);
      expect(await service.getDead('celery', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
      const seen = await until('the potatoq worker to run it', async () => ran(outP, id), 30_000, logs);
      expect(seen).toEqual({ system: 'potatoq', ...EXPECTED });
      expect(runs(outP, id)).toBe(1);
    },
  );

  it('moves a potatoq dead letter to Celery on Redis, where a real Celery worker runs it', async () => {
    const id = await potatoqLetter('pg');
    expect((await service.getResult('pg', id))?.status).toBe('FAILURE');
    allow(outC, true);
    const r = await move.moveDead('pg', 'celery', [id], BY);
    expect(r.succeeded.map((o) => [o.id, o.outcome])).toEqual([[id, 'ok']]);
    expect(await service.getDead('pg', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    // Its FAILURE went with the letter, as a replay forgets it: found on Celery only.
    expect(await service.getResult('pg', id)).toBeNull();
    expect((await service.findInBroker('pg', id)).items).toEqual([]);
    const seen = await until('the Celery worker to run it', async () => ran(outC, id), 30_000, logs);
    expect(seen).toEqual({ system: 'celery', ...EXPECTED });
    expect(runs(outC, id)).toBe(1);
  });

  // mv.quiet is an ignore_result task on potatoq, an ordinary one on Celery: only the message decides there.
  it.each([
    ['pg', 'quiet', null],
    ['pg', 'fail', 'SUCCESS'],
    ['celery', 'quiet', null],
    ['celery', 'fail', 'SUCCESS'],
  ] as const)('a potatoq letter moved to %s: mv.%s runs there once; its result there: %s', async (to, task, status) => {
    const id = await potatoqLetter('sq', task);
    const failure = (await service.getResult('sq', id))?.status ?? null;
    const out = to === 'pg' ? outP : outC;
    allow(out, true);
    const r = await move.moveDead('sq', to, [id], BY);
    expect(r.succeeded).toEqual([{ id, outcome: 'ok', message: expect.stringMatching(/^enqueued on .*; removed from potatoq SQLite$/) }]);
    // The source's result (a FAILURE unless the task ignores results) went with the letter.
    expect(failure).toBe(task === 'fail' ? 'FAILURE' : null);
    expect(await service.getResult('sq', id)).toBeNull();
    await until('the target worker to run it', async () => ran(out, id), 30_000, logs);
    if (status) await until('its result', async () => (await service.getResult(to, id))?.status === status, 10_000, logs);
    await new Promise((res) => setTimeout(res, 1500));
    expect((await service.getResult(to, id))?.status ?? null).toBe(status);
    expect(runs(out, id)).toBe(1);
  });

  it('a move whose removal failed, retried after the task ran and its result went, does not run the task twice', async () => {
    const id = await potatoqLetter('sq');
    allow(outC, true);
    // Step 2 fails: the SQLite file is locked by another writer; the task is on Celery, the letter still here.
    const lock = new Database(sqliteFile);
    lock.exec('BEGIN IMMEDIATE');
    let first;
    try {
      first = await move.moveDead('sq', 'celery', [id], BY);
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
    expect(first.failed).toEqual([
      { id, outcome: 'error', message: expect.stringMatching(/^enqueued on Celery .*removing it from potatoq SQLite failed/) },
    ]);
    await until('the Celery worker to run it', async () => ran(outC, id), 30_000, logs);
    // As if the task stored no result (ignore_result): nothing of it is left in Celery but the
    // move's marker. The retry finds it by that, sends nothing, and removes the letter.
    const backend = connectRedis(C_BACKEND);
    expect(await backend.del(`celery-task-meta-${id}`)).toBe(1);
    backend.disconnect();
    const r = await move.moveDead('sq', 'celery', [id], BY);
    expect(r.succeeded).toEqual([
      {
        id,
        outcome: 'already',
        message: expect.stringMatching(/^already on Celery \(an earlier move already sent .*removed from potatoq SQLite$/),
      },
    ]);
    expect(await service.getDead('sq', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
    await new Promise((res) => setTimeout(res, 2000));
    expect(runs(outC, id)).toBe(1);
  });

  it("a task already waiting on potatoq under the letter's id: the move only removes the Celery failure", async () => {
    await pgWorker.stop();
    let restarted = false;
    try {
      const id = await celeryFailure();
      // Step 1 alone, as a console without the move journal left it when it stopped.
      const call = await getAdapter('celery').exportCall!(id);
      expect((await getAdapter('pg').importCall!(call!)).outcome).toBe('ok');
      const r = await move.moveDead('celery', 'pg', [id], BY);
      expect(r.succeeded).toEqual([
        { id, outcome: 'already', message: expect.stringMatching(/already waiting here.*removed from Celery/) },
      ]);
      expect(await service.getTask('pg', id)).toMatchObject({ id, state: 'ready' });
      allow(outP, true);
      pgWorker.start([Q]);
      restarted = true;
      await until('the potatoq worker to run it', async () => ran(outP, id), 30_000, logs);
      await new Promise((res) => setTimeout(res, 2000));
      expect(runs(outP, id)).toBe(1);
    } finally {
      if (!restarted) pgWorker.start([Q]);
    }
  });

  it('moves all matching letters through the bulk runner, each run once by the Celery worker', async () => {
    const ids = [await potatoqLetter('sq'), await potatoqLetter('sq'), await potatoqLetter('sq')];
    allow(outC, true);
    const filter = { queue: Q, task: 'mv.fail', to: 'celery' };
    const backend = serviceBackend('sq', 'move', filter);
    const job = new BulkJob({ brokerId: 'sq', action: 'move', filter, snapshot: await takeSnapshot(backend), backend });
    expect(new Set(job.snapshotIds())).toEqual(new Set(ids));
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'done', progress: { total: 3, succeeded: 3, skipped: 0, failed: 0 } });
    for (const id of ids) {
      expect(await service.getDead('sq', id).catch((e: { code: string }) => e.code)).toBe('NotFound');
      await until('the Celery worker to run it', async () => ran(outC, id), 30_000, logs);
      expect(runs(outC, id)).toBe(1);
    }
  }, 90_000);

  it('refuses incompatible pairs with the reason, and reports a letter that is not there', async () => {
    const id = await celeryFailure();
    await expect(move.moveDead('celery', 'crmq', [id], BY)).rejects.toMatchObject({
      code: 'Unsupported',
      message: expect.stringMatching(/RabbitMQ cannot look a queued message up by its id/),
    });
    await expect(move.moveDead('celery', 'celery', [id], BY)).rejects.toMatchObject({
      message: expect.stringMatching(/already on this broker/),
    });
    expect(await service.getDead('celery', id)).toMatchObject({ id });
    const r = await move.moveDead('celery', 'pg', ['no-such-id'], BY);
    expect(r.failed).toEqual([
      { id: 'no-such-id', outcome: 'missing', message: expect.stringMatching(/^not moved: not a dead letter on Celery/) },
    ]);
  });
});
