// The rig of tests/move-journal.int.test.ts: a potatoq SQLite broker (the source, where
// `mv.quiet` fails), PostgreSQL and Redis brokers (the targets, where it runs; their results
// expire after 1 s), a real potatoq worker on each, the console configured for them with its
// state store in a temp SQLite file, and a second console process (tests/support/move-child.ts).
// Importing it configures this process's console; `startWorkers` / `cleanUp` around the suite.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { dropSchema, migratedSchema, PG_URL, pgAvailable, PY_DIR, sqlAdmin, tableOf, type PgTarget } from '@/tests/support/postgres';
import { migratedDb } from '@/tests/support/sqlite-db';
import { PYTHON, ROOT } from '@/tests/support/potatoq-seeder';
import { dropKeysAt, newPrefix, REDIS_URL, redisAvailable } from '@/tests/support/redis';
import { SoloWorker, until } from '@/tests/support/solo-worker';
import { runsIn } from './runs-log';

export const up = (await pgAvailable()) && (await redisAvailable());
const PREFIX = newPrefix();
export const Q = `mj-${process.pid}`;
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
export type Target = 'pg' | 'rd';
export const TARGET_NAME = { pg: 'potatoq PG', rd: 'potatoq Redis' } as const;
if (up) {
  pg = migratedSchema('mj_');
  Object.assign(process.env, {
    POTATOQ_CONSOLE_BROKERS: brokersEnv(500),
    POTATOQ_CONSOLE_STATE: STATE,
    POTATOQ_CONSOLE_READ_TIMEOUT_MS: '2000',
    POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: '4000',
  });
}
export const move = await import('@/lib/brokers/move');
export const service = await import('@/lib/brokers/service');
const { resetAdapters } = await import('@/lib/brokers/registry');
export const { serviceBackend } = await import('@/lib/bulk/backend');
export const { BulkJob } = await import('@/lib/bulk/runner');
export const { takeSnapshot } = await import('@/lib/bulk/snapshot');

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
export const logs = () => `source:\n${source.log.slice(-2000)}\npg:\n${target.log.slice(-2000)}\nredis:\n${redisTarget.log.slice(-2000)}`;

/** After the task ran on the target, the target has nothing of it: `mv.quiet` is an
 *  ignore_result task, and the move carries that, so it stores no result there; a result that
 *  was stored all the same would expire (after 1 s here: Redis drops the key itself, potatoq's
 *  maintenance deletes PostgreSQL's row), and this checks that nothing is left. */
export async function leaveNoTrace(to: Target, id: string): Promise<void> {
  await sleep(1200);
  if (to === 'pg') {
    execFileSync(PYTHON, ['-c', 'import mv_potatoq_app as m\nm.app.broker.maintenance()'], { cwd: PY_DIR, env: pgTargetEnv() });
    expect(await storedResults(id)).toBe('0');
  }
  await expect(service.getTask(to, id)).rejects.toMatchObject({ code: 'NotFound' });
  expect(await service.getResult(to, id)).toBeNull();
}

export const runs = (id: string) => runsIn(outT, id);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A dead letter of `mv.quiet` made by the real worker on the SQLite broker. */
export async function letter(): Promise<string> {
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
export function lockSource(): () => void {
  const db = new Database(sqliteFile);
  db.exec('BEGIN IMMEDIATE');
  return () => {
    db.exec('ROLLBACK');
    db.close();
  };
}

/** A move of `id` to PostgreSQL whose step 2 failed (the source locked): the task ran on the
 *  target and left no trace there, the letter is still here, and the journal keeps the row. */
export async function unfinishedMove(id: string): Promise<void> {
  const release = lockSource();
  try {
    expect((await move.moveDead('sq', 'pg', [id], { by: 'olga' })).failed[0]).toMatchObject({ outcome: 'error' });
  } finally {
    release();
  }
  await until('the target worker to run the moved task', () => runs(id) === 1, 30_000, logs);
  await leaveNoTrace('pg', id);
}

/** Another console process moving `id`; it waits up to 60 s on the locked source. */
export function otherConsole(
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
export function journalRow(id: string): { at: string; who: string; until_ms: number } | undefined {
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

export function startWorkers(): void {
  source.start([Q]);
  target.start([Q]);
  redisTarget.start([Q]);
}

/** The PostgreSQL target's worker, stopped and started by a test that needs a task to wait there. */
export const pgWorker = () => target;

export async function cleanUp(): Promise<void> {
  await Promise.all([source.stop(), target.stop(), redisTarget.stop()]);
  await resetAdapters();
  if (pg) await dropSchema(pg.schema);
  if (up) await dropKeysAt(REDIS_URL, `${PREFIX}:`);
  for (const d of [outS, outT, stateDir, path.dirname(sqliteFile)]) if (d) fs.rmSync(d, { recursive: true, force: true });
}
