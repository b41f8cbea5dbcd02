// The rig of tests/move-queueflow.int.test.ts (test support, not shipped): the brokers as a
// console sees them (Celery on Redis dbs 11 and 12, potatoq on a SQLite file, QueueFlow with a
// read-write token, a read-only one and one that is down), the state store file, the real workers
// and helpers reading QueueFlow's jobs by idempotency key.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { redisAvailable, redisDb, stopWorker } from '@/tests/brokers/celery/redis/support';
import { spawnCeleryWorker } from '@/tests/support/celery-worker';
import { dropSchema, migratedSchema, PG_URL, pgAvailable, PY_DIR } from '@/tests/support/postgres';
import { dropKeysAt } from '@/tests/support/redis';
import { PYTHON } from '@/tests/support/potatoq-seeder';
import { SoloWorker } from '@/tests/support/solo-worker';
import { migratedDb } from '@/tests/support/sqlite-db';
import { call, PyWorker, ROOT, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';

export const s = (await redisAvailable()) ? startQueueflow() : null;
export const up = s !== null;
export const Q = `mvqf-${process.pid}`;
export const TQ = uniqueQueue('mvqf');
// Another suite on this rig (run beside it) sets MVQF_REDIS_DBS ("broker,backend") first.
const [cBroker = 11, cBackend = 12] = (process.env.MVQF_REDIS_DBS ?? '').split(',').filter(Boolean).map(Number);
// Or Celery on RabbitMQ (MVQF_CELERY_AMQP and MVQF_CELERY_MGMT), results still in Redis.
const amqp = process.env.MVQF_CELERY_AMQP;
export const C_BROKER = amqp ?? redisDb(cBroker);
export const C_BACKEND = redisDb(cBackend);
export const outC = fs.mkdtempSync(path.join(os.tmpdir(), 'mvqf-celery-'));
export const outP = fs.mkdtempSync(path.join(os.tmpdir(), 'mvqf-potatoq-'));
export const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mvqf-state-'));
export const sqliteFile = up ? migratedDb() : '';
export const celeryEnv = { ...process.env, CT_BROKER: C_BROKER, CT_BACKEND: C_BACKEND, CT_OUT: outC, PYTHONUNBUFFERED: '1' };
export const sqEnv = { ...process.env, MV_BROKER: `sqlite:///${sqliteFile}`, MV_OPTIONS: '{}', MV_OUT: outP, PYTHONUNBUFFERED: '1' };
/** potatoq on PostgreSQL (a schema of its own, when PostgreSQL is up) and on Redis (db 13, a prefix of its own). */
export const pgT = up && (await pgAvailable()) ? migratedSchema('mvw_') : null;
export const P_REDIS = redisDb(13);
export const P_PREFIX = `mvw${process.pid}`;
export const pgEnv = { ...sqEnv, MV_BROKER: PG_URL, MV_OPTIONS: JSON.stringify(pgT?.options ?? {}) };
export const prEnv = { ...sqEnv, MV_BROKER: P_REDIS, MV_OPTIONS: JSON.stringify({ global_keyprefix: P_PREFIX }) };
if (s)
  Object.assign(process.env, {
    POTATOQ_CONSOLE_BROKERS: JSON.stringify([
      {
        id: 'celery',
        name: 'Celery',
        kind: 'celery',
        url: C_BROKER,
        resultBackend: C_BACKEND,
        inspectTimeoutMs: amqp ? 1000 : 300,
        ...(amqp ? { managementUrl: process.env.MVQF_CELERY_MGMT } : {}),
      },
      { id: 'sq', name: 'potatoq SQLite', url: `sqlite:///${sqliteFile}`, busyTimeoutMs: 2000 },
      ...(pgT ? [{ id: 'pg', name: 'potatoq PG', url: PG_URL, ...pgT.options }] : []),
      { id: 'pr', name: 'potatoq Redis', url: P_REDIS, global_keyprefix: P_PREFIX },
      // Never connected to for a waiting move: its model refuses first.
      { id: 'pmq', name: 'potatoq RMQ', url: 'amqp://guest:guest@127.0.0.1:5672/' },
      { id: 'qf', name: 'QueueFlow', kind: 'queueflow', url: s.url, token: s.token },
      { id: 'qfro', name: 'QueueFlow RO', kind: 'queueflow', url: s.url, token: s.tokenRo },
      { id: 'qfdown', name: 'QueueFlow down', kind: 'queueflow', url: 'http://127.0.0.1:9', token: s.token, timeoutMs: 1000 },
    ]),
    POTATOQ_CONSOLE_STATE: path.join(stateDir, 'state.sqlite3'),
    POTATOQ_CONSOLE_READ_TIMEOUT_MS: '3000',
    POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: '6000',
  });
export const move = await import('@/lib/brokers/move');
export const service = await import('@/lib/brokers/service');
export const { getAdapter, resetAdapters } = await import('@/lib/brokers/registry');
export const { getMappingStore } = await import('@/lib/brokers/mapping/store');
export const { previewMove } = await import('@/lib/brokers/mapping/preview');
export const { jobOf, moveKey } = await import('@/lib/brokers/mapping/job');
export const { getMoveJournal } = await import('@/lib/brokers/move-journal-open');
export const { ZCallMapping } = await import('@/lib/brokers/mapping/schema');
export const { serviceBackend } = await import('@/lib/bulk/backend');
export const { BulkJob } = await import('@/lib/bulk/runner');
export const { takeSnapshot } = await import('@/lib/bulk/snapshot');
export const BY = { by: 'test' };

let celery: { proc: import('node:child_process').ChildProcess; log: () => string } | undefined;
export const pq = new SoloWorker('mv_potatoq_app', PY_DIR, sqEnv);
/** The QueueFlow Python client's worker on the target queue (started by `startWorkers`). */
export const qfw = s ? new PyWorker(s, TQ) : (null as unknown as PyWorker);
export const logs = () =>
  `celery:\n${celery?.log().slice(-1500)}\npotatoq:\n${pq.log.slice(-1500)}\nqueueflow worker:\n${qfw?.log.slice(-1500)}\nserver:\n${s?.log().slice(-1500)}`;

/** Celery's mv.fail with typed values, sent by Celery's own apply_async; its FAILURE id. */
export async function celeryFailure(): Promise<string> {
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

export const MAPPING = {
  source: 'celery',
  target: 'qf',
  task: 'mv.fail',
  targetTask: 'qf.ok',
  queue: TQ,
  args: ['order', 'label', 'amount', 'at'],
  encodings: { decimal: 'text', datetime: 'iso8601', uuid: 'text' },
  retry: { maxRetries: 2 },
};
export const PAYLOAD = {
  order: 7,
  label: 'x',
  amount: '1.50',
  at: '2026-01-02T03:04:05+00:00',
  u: '00000000-0000-0000-0000-000000000005',
  f: 2.5,
  n: null,
};
export const save = async (m: Record<string, unknown>) => (await getMappingStore()).put(ZCallMapping.parse(m), 'test');

/** The jobs of the target queue created under `key` (read one by one: the list has no key filter). */
export async function jobsWithKey(key: string): Promise<string[]> {
  const list = await call<{ jobs: Array<{ id: string }> }>(s!, 'GET', `/api/v1/jobs?queue=${TQ}&limit=100`);
  const out: string[] = [];
  for (const j of list.body.jobs) {
    const d = await call<{ idempotency_key?: string }>(s!, 'GET', `/api/v1/jobs/${j.id}`);
    if (d.body.idempotency_key === key) out.push(j.id);
  }
  return out;
}

/** The journal row of a move by olga that stopped (its lease long over). */
export const stoppedMove = (source: string, id: string, target: string) => ({
  source,
  id,
  target,
  moveId: 'crashed',
  at: new Date().toISOString(),
  who: 'olga',
  auditId: null,
  untilMs: 1,
  note: null,
});

/** A console process of its own moving `id` (tests/support/move-child.ts). */
export function otherConsole(from: string, id: string, by: string, env: Record<string, string> = {}): Promise<string> {
  return spawnConsole(from, id, by, env).done;
}

/** `otherConsole`'s process itself (a test kills it mid-move): its output so far, and at exit. */
export function spawnConsole(from: string, ids: string, by: string, env: Record<string, string> = {}) {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/vite-node'), ['--config', 'vitest.config.ts', 'tests/support/move-child.ts'], {
    cwd: ROOT,
    env: { ...process.env, MOVE_FROM: from, MOVE_TO: 'qf', MOVE_IDS: ids, MOVE_BY: by, ...env },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, out: () => out, done: new Promise<string>((res) => child.on('exit', () => res(out))) };
}

export async function startWorkers(): Promise<void> {
  celery = spawnCeleryWorker(celeryEnv, [Q], `mvqf-${Q}`, ['-P', 'solo'], 'mv_celery_app');
  pq.start([Q]);
  qfw.start();
  await until('the Celery worker', async () => (await service.listWorkers('celery')).length > 0, 60_000, logs);
}

export async function stopWorkers(): Promise<void> {
  if (celery) await stopWorker(celery.proc);
  await pq.stop();
  await qfw?.stop();
  await resetAdapters();
  s?.stop();
  if (pgT) await dropSchema(pgT.schema);
  if (up) await dropKeysAt(P_REDIS, `${P_PREFIX}:`);
  for (const d of [outC, outP, stateDir, path.dirname(sqliteFile)]) if (d) fs.rmSync(d, { recursive: true, force: true });
}
