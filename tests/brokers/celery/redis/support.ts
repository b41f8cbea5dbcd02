// Test helpers for the Celery adapter on Redis (not shipped code): the databases each suite
// owns, the loud skip, the real Celery seeder (tests/py/celery_seeder.py) as a ContractSeeder,
// and real `celery worker` processes (tests/py/rt_celery_app.py).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContractSeeder } from '@/tests/contract';
import { spawnPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { redisProblem } from '@/tests/support/redis-ping';
import { spawnCeleryWorker } from '@/tests/support/celery-worker';
import type { StoreConfig } from '@/lib/brokers/types';

const BASE = (process.env.POTATOQ_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0').replace(/\/\d*$/, '');
/** A Redis URL on database `db` of the test server (the Celery suites own dbs 8-10 and 12-15;
 *  11 is the e2e potatoq Redis broker's). */
export const redisDb = (db: number) => `${BASE}/${db}`;

export async function redisAvailable(): Promise<boolean> {
  const why = await redisProblem(redisDb(0));
  if (why === null) return true;
  const line = `\n!!! Redis is not reachable at ${BASE} (${why}): SKIPPING the Celery-on-Redis suites (scripts/services.sh up redis) !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return false;
}

export interface CeleryWorld {
  broker: string;
  backend: string;
  out: string;
  env: Record<string, string>;
}

export function newCeleryWorld(brokerDb: number, backendDb: number): CeleryWorld {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ct-celery-'));
  const broker = redisDb(brokerDb);
  const backend = redisDb(backendDb);
  return { broker, backend, out, env: { CT_BROKER: broker, CT_BACKEND: backend, CT_OUT: out, PYTHONUNBUFFERED: '1' } };
}

export function spawnCelerySeeder(w: CeleryWorld): PySeeder {
  const saved = Object.fromEntries(Object.keys(w.env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, w.env);
  try {
    return spawnPySeeder('celery_seeder.py', []);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export const celeryConfig = (w: CeleryWorld, id = 'celery-test', options: Record<string, unknown> = {}): StoreConfig => ({
  id,
  name: id,
  url: w.broker,
  readOnly: false,
  options: { resultBackend: w.backend, inspectTimeoutMs: 300, ...options },
});

/** The ContractSeeder over the real Celery seeder. */
export function contractSeeder(py: PySeeder): ContractSeeder {
  return {
    enqueue: (m) => py.call<string>('enqueue', { ...m }),
    enqueueMany: (ms) => py.call<string[]>('enqueue_many', { messages: ms }),
    claim: (queue) => py.call<string | null>('claim', { queue }),
    deadLetter: (m) => py.call<string>('dead_letter', { ...m }),
    deadLetterRaw: async () => {
      throw new Error('Celery failures are result records, not raw payloads');
    },
    jobState: (id) => py.call<string | null>('state', { id }),
    jobPayload: (id) => py.call<string | null>('payload', { id }),
    jobMessage: (id) => py.call<{ args: unknown; eta?: unknown } | null>('message', { id }),
    isDead: (id) => py.call<boolean>('is_dead', { id }),
    result: (id) => py.call('result', { id }),
    queueSizes: () => py.call<Record<string, number>>('sizes'),
  };
}

/** A real `celery worker` (solo pool unless `pool` says otherwise) on `queues`, logging into `log`. */
export const startWorker = (w: CeleryWorld, queues: string[], name: string, pool?: string[]) =>
  spawnCeleryWorker({ ...process.env, ...w.env }, queues, name, pool);

export async function stopWorker(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve();
    }, 15_000);
    proc.on('exit', () => {
      clearTimeout(t);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000, log?: () => string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${log ? `\n${log()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
