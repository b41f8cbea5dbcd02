// A move of a dead letter never runs its task twice, even when the console stops between the
// move's two steps and the target keeps no trace of the task: real potatoq 26.1a8 workers on a
// SQLite broker (the source, where `mv.quiet` fails) and on two targets where it runs, Redis
// and PostgreSQL, whose results expire after 1 s here (after a day by default: Redis drops
// the key, potatoq's own maintenance the row), so once it ran the target has nothing; a second
// console process (tests/support/move-child.ts) killed between the steps; the console's state
// store (the move journal) in a SQLite file both processes share. Each run has its own SQLite
// files, PostgreSQL schema, Redis key prefix and output folders, all removed afterwards.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, migratedSchema, PG_URL, pgAvailable, PY_DIR, sqlAdmin, tableOf, type PgTarget } from '@/tests/support/postgres';
import { migratedDb } from '@/tests/support/sqlite-db';
import { PYTHON, ROOT } from '@/tests/support/potatoq-seeder';
import { dropKeysAt, newPrefix, REDIS_URL, redisAvailable } from '@/tests/support/redis';
import { SoloWorker, until } from '@/tests/support/solo-worker';

const up = (await pgAvailable()) && (await redisAvailable());
const PREFIX = newPrefix();
const Q = `mj-${process.pid}`;
const outS = fs.mkdtempSync(path.join(os.tmpdir(), 'mj-source-'));
const outT = fs.mkdtempSync(path.join(os.tmpdir(), 'mj-target-'));
fs.writeFileSync(path.join(outT, 'ok'), '1'); // mv.quiet runs on the target, fails on the source
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mj-state-'));
const STATE = path.join(stateDir, 'console-state.sqlite3');
let pg: PgTarget | undefined;
const sqliteFile = up ? migratedDb() : '';

/** The brokers as a console sees them; `busyMs`: how long it waits on a locked SQLite file. */
const brokersEnv = (busyMs: number) =>
  JSON.stringify([
    { id: 'sq', name: 'potatoq SQLite', url: `sqlite:///${sqliteFile}`, busyTimeoutMs: busyMs },
    { id: 'pg', name: 'potatoq PG', url: PG_URL, ...pg?.options },
    { id: 'rd', name: 'potatoq Redis', url: REDIS_URL, global_keyprefix: PREFIX },
  ]);
type Target = 'pg' | 'rd';
const TARGET_NAME = { pg: 'potatoq PG', rd: 'potatoq Redis' } as const;
if (up) {
  pg = migratedSchema('mj_');
  Object.assign(process.env, {
    POTATOQ_CONSOLE_BROKERS: brokersEnv(500),
    POTATOQ_CONSOLE_STATE: STATE,
    POTATOQ_CONSOLE_READ_TIMEOUT_MS: '2000',
    POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: '4000',
  });
}
const move = await import('@/lib/brokers/move');
const service = await import('@/lib/brokers/service');
const { resetAdapters } = await import('@/lib/brokers/registry');
const { serviceBackend } = await import('@/lib/bulk/backend');
const { BulkJob } = await import('@/lib/bulk/runner');
const { takeSnapshot } = await import('@/lib/bulk/snapshot');

const pyEnv = (broker: string, out: string, options: Record<string, unknown> = {}) => ({
  ...process.env,
  MV_BROKER: broker,
  MV_OPTIONS: JSON.stringify(options),
  MV_OUT: out,
  PYTHONUNBUFFERED: '1',
});
const sqEnv = () => pyEnv(`sqlite:///${sqliteFile}`, outS);
const source = new SoloWorker('mv_potatoq_app', PY_DIR, up ? sqEnv() : process.env);
const pgTargetEnv = () => ({ ...pyEnv(PG_URL, outT, pg!.options), MV_RESULT_EXPIRES: '1' });
const target = new SoloWorker('mv_potatoq_app', PY_DIR, up ? pgTargetEnv() : process.env);
const redisTarget = new SoloWorker(
  'mv_potatoq_app',
  PY_DIR,
  up ? { ...pyEnv(REDIS_URL, outT, { global_keyprefix: PREFIX }), MV_RESULT_EXPIRES: '1' } : process.env,
);
const logs = () => `source:\n${source.log.slice(-2000)}\npg:\n${target.log.slice(-2000)}\nredis:\n${redisTarget.log.slice(-2000)}`;

/** After the task ran on the target, its result expires (after 1 s here, a day by default):
 *  Redis drops the key itself, potatoq's maintenance deletes PostgreSQL's row. Then the target
 *  has nothing of the task. (A moved call does not carry the letter's ignore_result, so the
 *  task stores a result there even when it is an ignore_result task.) */
async function leaveNoTrace(to: Target, id: string): Promise<void> {
  await sleep(1200);
  if (to === 'pg') {
    execFileSync(PYTHON, ['-c', 'import mv_potatoq_app as m\nm.app.broker.maintenance()'], { cwd: PY_DIR, env: pgTargetEnv() });
    expect(await storedResults(id)).toBe('0');
  }
  await expect(service.getTask(to, id)).rejects.toMatchObject({ code: 'NotFound' });
  expect(await service.getResult(to, id)).toBeNull();
}

const runs = (id: string) => {
  const f = path.join(outT, 'runs.log');
  return fs.existsSync(f)
    ? fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l === id).length
    : 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A dead letter of `mv.quiet` made by the real worker on the SQLite broker. */
async function letter(): Promise<string> {
  const id = execFileSync(
    PYTHON,
    ['-c', `import mv_potatoq_app as m\nprint(m.quiet.apply_async(args=[1], queue=${JSON.stringify(Q)}).id)`],
    {
      cwd: PY_DIR,
      env: sqEnv(),
    },
  )
    .toString()
    .trim();
  await until('the dead letter', async () => (await service.getDead('sq', id).catch(() => null)) !== null, 30_000, logs);
  return id;
}

/** Holds the SQLite broker's write lock: the move's step 2 (removing the letter) waits for it. */
function lockSource(): () => void {
  const db = new Database(sqliteFile);
  db.exec('BEGIN IMMEDIATE');
  return () => {
    db.exec('ROLLBACK');
    db.close();
  };
}

/** Another console process moving `id`; it waits up to 60 s on the locked source. */
function otherConsole(
  id: string,
  by: string,
  to: Target = 'pg',
): { child: ChildProcess; out: () => string; exited: Promise<number | null> } {
  let out = '';
  const child = spawn(path.join(ROOT, 'node_modules/.bin/vite-node'), ['--config', 'vitest.config.ts', 'tests/support/move-child.ts'], {
    cwd: ROOT,
    env: { ...process.env, POTATOQ_CONSOLE_BROKERS: brokersEnv(60_000), MOVE_FROM: 'sq', MOVE_TO: to, MOVE_IDS: id, MOVE_BY: by },
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, out: () => out, exited };
}

/** What the journal says of `id` (read straight from the state file). */
function journalRow(id: string): { at: string; who: string; until_ms: number } | undefined {
  if (!fs.existsSync(STATE)) return undefined;
  const db = new Database(STATE, { readonly: true });
  try {
    return db.prepare('SELECT at, who, until_ms FROM console_move_journal WHERE source = ? AND id = ?').get('sq', id) as
      { at: string; who: string; until_ms: number } | undefined;
  } finally {
    db.close();
  }
}

const storedResults = async (id: string) =>
  (await sqlAdmin<{ n: string }>(`SELECT count(*) AS n FROM ${tableOf(pg!, 'results')} WHERE id = $1`, [id]))[0]?.n;

describe.skipIf(!up)('a move interrupted between its steps never runs the task twice (real potatoq workers)', () => {
  beforeAll(() => {
    source.start([Q]);
    target.start([Q]);
    redisTarget.start([Q]);
  });

  afterAll(async () => {
    await Promise.all([source.stop(), target.stop(), redisTarget.stop()]);
    await resetAdapters();
    if (pg) await dropSchema(pg.schema);
    if (up) await dropKeysAt(REDIS_URL, `${PREFIX}:`);
    for (const d of [outS, outT, stateDir, path.dirname(sqliteFile)]) if (d) fs.rmSync(d, { recursive: true, force: true });
  }, 60_000);

  it.each(['rd', 'pg'] as const)(
    'the console is killed after the enqueue to %s: the task runs there, leaves no trace, and no retry sends it again',
    async (to) => {
      const id = await letter();
      const release = lockSource();
      const other = otherConsole(id, 'olga', to);
      try {
        await until(
          'the target worker to run the moved task',
          () => runs(id) === 1,
          60_000,
          () => `${other.out()}\n${logs()}`,
        );
        other.child.kill('SIGKILL');
        await other.exited;
      } finally {
        release();
      }
      await leaveNoTrace(to, id);

      // At once: the move might still be running (its lease), so nothing is sent.
      const soon = await move.moveDead('sq', to, [id], { by: 'bob' });
      await sleep(2000);
      expect(runs(id)).toBe(1);
      expect(soon.succeeded).toEqual([]);
      expect(soon.failed).toEqual([
        {
          id,
          outcome: 'conflict',
          message: expect.stringMatching(
            new RegExp(`^not moved: it is being moved by another operation \\(a move at .* by olga to ${TARGET_NAME[to]}`),
          ),
        },
      ]);

      const row = journalRow(id);
      expect(row).toMatchObject({ who: 'olga' });
      // After its lease: the operator is told what may have happened, and still nothing is sent.
      await sleep(Math.max(0, row!.until_ms - Date.now()) + 100);
      const later = await move.moveDead('sq', to, [id], { by: 'bob' });
      expect(later.failed).toEqual([
        {
          id,
          outcome: 'conflict',
          forcible: true,
          message: expect.stringContaining(
            `not moved: a previous move at ${row!.at} by olga may have delivered it to ${TARGET_NAME[to]}, and it may have run there`,
          ),
        },
      ]);
      expect(later.failed[0]!.message).toMatch(
        /Nothing was sent\. Check .*discard the letter here.*replay it here.*"move anyway" \(force\)/,
      );
      await sleep(2000);
      expect(runs(id)).toBe(1);
      expect(await service.getDead('sq', id)).toMatchObject({ id });
    },
    120_000,
  );

  it('step 2 fails (the source is locked): the retry sends nothing and says what happened', async () => {
    const id = await letter();
    const release = lockSource();
    let first;
    try {
      first = await move.moveDead('sq', 'pg', [id], { by: 'olga' });
    } finally {
      release();
    }
    expect(first.failed).toEqual([
      { id, outcome: 'error', message: expect.stringMatching(/^enqueued on potatoq PG .*but removing it from potatoq SQLite failed/) },
    ]);
    await until('the target worker to run the moved task', () => runs(id) === 1, 30_000, logs);
    await leaveNoTrace('pg', id);
    const retry = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
    await sleep(2000);
    expect(runs(id)).toBe(1);
    expect(retry.failed).toEqual([
      {
        id,
        outcome: 'conflict',
        forcible: true,
        message: expect.stringMatching(/may have delivered it to potatoq PG.*removing it from potatoq SQLite failed.*Nothing was sent/),
      },
    ]);
    await sleep(2000);
    expect(runs(id)).toBe(1);
  }, 90_000);

  it('a task still waiting on the target after the crash: the retry only removes the letter, and the row goes', async () => {
    await target.stop();
    let restarted = false;
    try {
      const id = await letter();
      const release = lockSource();
      const other = otherConsole(id, 'olga');
      try {
        await until('the task on the target', async () => (await service.getTask('pg', id).catch(() => null)) !== null, 60_000, other.out);
        other.child.kill('SIGKILL');
        await other.exited;
      } finally {
        release();
      }
      await sleep(Math.max(0, (journalRow(id)?.until_ms ?? 0) - Date.now()) + 100);
      const r = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
      expect(r.succeeded).toEqual([
        {
          id,
          outcome: 'already',
          message: expect.stringMatching(
            /^already on potatoq PG \(a task with this id is already waiting here\), sent there by a move at .* by olga.*; removed from potatoq SQLite$/,
          ),
        },
      ]);
      expect(journalRow(id)).toBeUndefined();
      target.start([Q]);
      restarted = true;
      await until('the target worker to run it', () => runs(id) === 1, 30_000, logs);
      await sleep(2000);
      expect(runs(id)).toBe(1);
    } finally {
      if (!restarted) target.start([Q]);
    }
  }, 120_000);

  it('two consoles move one letter at once: one enqueue; the other is told another operation moves it', async () => {
    const id = await letter();
    const release = lockSource();
    const other = otherConsole(id, 'olga');
    let mine;
    try {
      // The other console has enqueued (and the task has run, leaving no trace) but not yet removed the letter.
      await until(
        'the target worker to run the moved task',
        () => runs(id) === 1,
        60_000,
        () => `${other.out()}\n${logs()}`,
      );
      await leaveNoTrace('pg', id);
      mine = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
    } finally {
      release();
    }
    await sleep(2000);
    expect(runs(id)).toBe(1);
    expect(mine.failed).toEqual([
      {
        id,
        outcome: 'conflict',
        message: expect.stringMatching(/^not moved: it is being moved by another operation \(a move at .* by olga/),
      },
    ]);
    expect(await other.exited).toBe(0);
    const theirs = JSON.parse(
      other
        .out()
        .split('\n')
        .find((l) => l.startsWith('RESULT '))!
        .slice(7),
    ) as { succeeded: unknown[] };
    expect(theirs.succeeded).toEqual([
      { id, outcome: 'ok', message: expect.stringMatching(/^enqueued on potatoq PG .*; removed from potatoq SQLite$/) },
    ]);
    expect(journalRow(id)).toBeUndefined();
    await sleep(2000);
    expect(runs(id)).toBe(1);
  }, 120_000);

  it('a bulk move goes through the journal too: the letter of an unfinished move is reported, not sent; the others move once', async () => {
    const stuck = await letter();
    const release = lockSource();
    try {
      expect((await move.moveDead('sq', 'pg', [stuck], { by: 'olga' })).failed[0]).toMatchObject({ outcome: 'error' });
    } finally {
      release();
    }
    await until('the target worker to run the moved task', () => runs(stuck) === 1, 30_000, logs);
    await leaveNoTrace('pg', stuck);
    const fresh = await letter();
    const filter = { queue: Q, task: 'mv.quiet', to: 'pg' };
    const backend = serviceBackend('sq', 'move', filter);
    const job = new BulkJob({ brokerId: 'sq', action: 'move', filter, snapshot: await takeSnapshot(backend), backend });
    expect(job.snapshotIds()).toEqual(expect.arrayContaining([stuck, fresh]));
    job.actor = 'bob';
    job.start();
    await job.finished;
    const v = job.view(Infinity);
    expect(v.failedOutcomes.find((o) => o.id === stuck)).toMatchObject({
      outcome: 'conflict',
      message: expect.stringMatching(/^not moved: a previous move at .* by olga may have delivered it to potatoq PG/),
    });
    expect(v.succeededSample).toContain(fresh);
    await until('the target worker to run the other letter', () => runs(fresh) === 1, 30_000, logs);
    await sleep(2000);
    expect([runs(stuck), runs(fresh)]).toEqual([1, 1]);
    expect(await service.getDead('sq', stuck)).toMatchObject({ id: stuck });
  }, 120_000);
});
