import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// The service-backed brokers of the e2e server, next to the SQLite ones: a PostgreSQL broker in
// its own schema with a non-default table prefix, and a RabbitMQ 4 broker with a Redis result
// backend under a per-run key prefix. Their names are chosen once per run by the config (main
// process) and written to `extra.json` in the run's dir, so workers, global setup and teardown
// agree. Global setup creates and seeds them and records whether each service answered
// (`extra-status.json`); specs skip loudly, or fail under POTATOQ_CONSOLE_REQUIRE_SERVICES=1.

export const ROOT = path.resolve(__dirname, '..');
export const PYTHON = path.join(ROOT, '.venv/bin/python');
export const POTATOQ = path.join(ROOT, '.venv/bin/potatoq');
export const PY_DIR = path.join(ROOT, 'tests/py');

export const PG_URL = process.env.POTATOQ_CONSOLE_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const RMQ4_URL = process.env.POTATOQ_TEST_RABBITMQ4_URL ?? 'amqp://potatoq:potatoq@127.0.0.1:5673/';
export const RMQ4_MGMT = process.env.POTATOQ_TEST_RABBITMQ4_MGMT ?? 'http://127.0.0.1:15673';
export const REDIS_URL = process.env.POTATOQ_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
export const RMQ3_URL = process.env.POTATOQ_TEST_RABBITMQ3_URL ?? 'amqp://guest:guest@127.0.0.1:5672/';
export const RMQ3_MGMT = process.env.POTATOQ_TEST_RABBITMQ3_MGMT ?? 'http://127.0.0.1:15672';
/** Database `db` of the test Redis. */
export const redisDb = (db: number) => `${REDIS_URL.replace(/\/\d*$/, '')}/${db}`;
/** potatoq reads `host//` (and `host/`) as vhost `/`, like Celery. */
export const potatoqUrl = (url: string) => url.replace(/\/?$/, '//').replace(/\/\/\/$/, '//');

export interface ExtraBrokers {
  pg: { id: 'pg'; schema: string; prefix: string; queues: { overview: string; replay: string; revoke: string } };
  rmq: { id: 'rmq'; prefix: string; queue: string; out: string };
  /** potatoq on Redis: its own db number and key prefix (`global_keyprefix`). */
  redis: { id: 'redis'; url: string; prefix: string; queues: { overview: string; replay: string } };
  /** A plain Celery app on Redis: broker and result backend databases owned by the e2e run. */
  celery: { id: 'celery'; broker: string; backend: string; queue: string };
  /** Celery on RabbitMQ 4.3 and 3.10 (e2e/celery-rabbitmq.spec.ts): results in Redis db 7 under a per-broker key prefix. */
  celeryRmq: CeleryRmqBroker[];
}

export interface CeleryRmqBroker {
  id: string;
  label: string;
  url: string;
  mgmt: string;
  backend: string;
  /** The result backend's `global_keyprefix` (ends in `:`, so Celery adds nothing). */
  prefix: string;
  /** `wait` has no consumer; a real worker consumes `work`. */
  queues: { wait: string; work: string };
}

export interface ExtraStatus {
  pg: string | null; // null: ready; otherwise why it is not
  rmq: string | null;
  redis?: string | null;
  rmqSeed?: { flakyId: string; celeryId: string };
  /** null: seeded; otherwise why the Celery broker is not. */
  celery?: string | null;
  celerySeed?: { waiting: string[]; typed: string; later: string; failures: string[] };
}

const extraFile = (dir: string) => path.join(dir, 'extra.json');
const statusFile = (dir: string) => path.join(dir, 'extra-status.json');

function runDir(): string {
  const dir = process.env.POTATOQ_E2E_DIR;
  if (!dir) throw new Error('POTATOQ_E2E_DIR is not set: run the specs through playwright.config.ts');
  return dir;
}

/** Chooses the run's schema, prefixes and queue names (config, main process, once per run). */
export function prepareExtraBrokers(dir: string): ExtraBrokers {
  const tag = randomBytes(4).toString('hex');
  const x: ExtraBrokers = {
    // Capitals and a dash: the console must quote potatoq's table names like potatoq does.
    pg: {
      id: 'pg',
      schema: `e2e_pg_${tag}`,
      prefix: 'E2e-pq_',
      queues: { overview: `pgov${tag}`, replay: `pgreplay${tag}`, revoke: `pgrevoke${tag}` },
    },
    rmq: { id: 'rmq', prefix: `e2e${tag}`, queue: `e2ermq${tag}`, out: path.join(dir, 'rmq-out') },
    redis: {
      id: 'redis',
      url: REDIS_URL.replace(/\/\d*$/, '') + '/11',
      prefix: `e2erd${tag}`,
      queues: { overview: `rdov${tag}`, replay: `rdreplay${tag}` },
    },
    // Databases 14 and 15 are the e2e run's (the Celery int suites use 8-13); global setup flushes them.
    celery: { id: 'celery', broker: redisDb(14), backend: redisDb(15), queue: `e2ecelery${tag}` },
    celeryRmq: [
      { id: 'celery-rmq4', label: 'RabbitMQ 4.3', url: RMQ4_URL, mgmt: RMQ4_MGMT, short: 'r4' },
      { id: 'celery-rmq3', label: 'RabbitMQ 3.10', url: RMQ3_URL, mgmt: RMQ3_MGMT, short: 'r3' },
    ].map(({ short, ...b }) => ({
      ...b,
      // Database 7 is this spec's (docs/systems/celery.md lists the Redis databases in use).
      backend: redisDb(7),
      prefix: `ce2e-${tag}-${short}:`,
      queues: { wait: `ce2e-wait-${tag}-${short}`, work: `ce2e-work-${tag}-${short}` },
    })),
  };
  fs.writeFileSync(extraFile(dir), JSON.stringify(x));
  return x;
}

export const extraBrokers = (dir = runDir()): ExtraBrokers => JSON.parse(fs.readFileSync(extraFile(dir), 'utf8')) as ExtraBrokers;

export function extraBrokerEntries(x: ExtraBrokers): Record<string, unknown>[] {
  return [
    { id: x.pg.id, name: 'Jobs (PostgreSQL)', url: PG_URL, schema: x.pg.schema, table_prefix: x.pg.prefix },
    {
      id: x.rmq.id,
      name: 'Events (RabbitMQ)',
      url: potatoqUrl(RMQ4_URL),
      managementUrl: RMQ4_MGMT,
      resultBackend: REDIS_URL,
      resultBackendOptions: { prefix: x.rmq.prefix },
      queues: [x.rmq.queue],
    },
    { id: x.redis.id, name: 'Cache (Redis)', url: x.redis.url, global_keyprefix: x.redis.prefix },
    {
      id: x.celery.id,
      kind: 'celery',
      name: 'Shop (Celery on Redis)',
      url: x.celery.broker,
      resultBackend: x.celery.backend,
      inspectTimeoutMs: 300,
    },
    ...x.celeryRmq.map((b) => ({
      id: b.id,
      kind: 'celery',
      name: `Orders (Celery on ${b.label})`,
      url: b.url,
      managementUrl: b.mgmt,
      resultBackend: b.backend,
      resultKeyprefix: b.prefix,
      queues: [b.queues.wait, b.queues.work],
      inspectTimeoutMs: 500,
    })),
  ];
}

export function writeExtraStatus(s: ExtraStatus, dir = runDir()): void {
  fs.writeFileSync(statusFile(dir), JSON.stringify(s));
}

export function extraStatus(dir = runDir()): ExtraStatus {
  const f = statusFile(dir);
  return fs.existsSync(f)
    ? (JSON.parse(fs.readFileSync(f, 'utf8')) as ExtraStatus)
    : { pg: 'global setup did not run', rmq: 'global setup did not run' };
}

/** Skips a spec loudly when its service is missing; fails it when services are required. */
export function requireService(why: string | null, label: string): boolean {
  if (why === null) return true;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1')
    throw new Error(`${label} is required (POTATOQ_CONSOLE_REQUIRE_SERVICES=1) but not available: ${why}`);
  console.warn(`\n!!! ${label} is not available (${why}): SKIPPING its e2e specs !!!\n`);
  return false;
}

/** Environment for the real potatoq CLI on the run's PostgreSQL broker (tests/py/rt_pg_tasks.py). */
export function pgEnv(x: ExtraBrokers): NodeJS.ProcessEnv {
  const options = { schema: x.pg.schema, table_prefix: x.pg.prefix };
  return {
    ...process.env,
    PQ_PG_URL: PG_URL,
    PQ_PG_OPTIONS: JSON.stringify(options),
    POTATOQ_NO_EMOJI: '1',
    NO_COLOR: '1',
    PYTHONUNBUFFERED: '1',
  };
}

/** Runs requests through tests/py/seeder_redis_contract.py (the REAL potatoq on the run's Redis db and prefix). */
export function redisSeed<T = unknown>(x: ExtraBrokers, requests: Record<string, unknown>[]): T[] {
  return seedWith<T>('seeder_redis_contract.py', [x.redis.url, JSON.stringify({ global_keyprefix: x.redis.prefix })], requests);
}

function seedWith<T>(script: string, args: string[], requests: Record<string, unknown>[]): T[] {
  const out = execFileSync(PYTHON, [path.join(PY_DIR, script), ...args], {
    cwd: PY_DIR,
    input: requests.map((r) => JSON.stringify(r)).join('\n') + '\n',
    env: { ...process.env, PYTHONUNBUFFERED: '1', POTATOQ_NO_EMOJI: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  }).toString();
  return out
    .trim()
    .split('\n')
    .map((line, i) => {
      const reply = JSON.parse(line) as { ok: boolean; result?: T; error?: string; traceback?: string };
      if (!reply.ok) throw new Error(`${script} ${String(requests[i]?.op)}: ${reply.error}\n${reply.traceback ?? ''}`);
      return reply.result as T;
    });
}

/**
 * Runs requests through tests/py/seeder_pg.py (the REAL potatoq's producer and consumer on
 * the run's schema), one process for the batch; returns each reply's result.
 */
export function pgSeed<T = unknown>(x: ExtraBrokers, requests: Record<string, unknown>[]): T[] {
  return seedWith<T>('seeder_pg.py', [PG_URL, JSON.stringify({ schema: x.pg.schema, table_prefix: x.pg.prefix })], requests);
}

/** A table of the run's PostgreSQL broker as SQL, e.g. `"e2e_pg_x"."E2e-pq_dead"`. */
export const pgTable = (x: ExtraBrokers, name: string) => `"${x.pg.schema}"."${(x.pg.prefix + name).replace(/"/g, '""')}"`;

/** Runs requests through tests/py/celery_seeder.py (the REAL Celery 5.7 on the run's Redis dbs). */
export function celerySeed<T = unknown>(x: ExtraBrokers, requests: Record<string, unknown>[]): T[] {
  return runCelerySeeder<T>({ ...process.env, CT_BROKER: x.celery.broker, CT_BACKEND: x.celery.backend, PYTHONUNBUFFERED: '1' }, requests);
}

/** Runs requests through tests/py/celery_seeder.py with `env` (its CT_* variables name the
 *  broker and backend): one process for the batch, a reply per request. */
export function runCelerySeeder<T = unknown>(env: NodeJS.ProcessEnv, requests: Record<string, unknown>[]): T[] {
  const out = execFileSync(PYTHON, [path.join(PY_DIR, 'celery_seeder.py')], {
    cwd: PY_DIR,
    input: requests.map((r) => JSON.stringify(r)).join('\n') + '\n',
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  }).toString();
  return out
    .trim()
    .split('\n')
    .map((line, i) => {
      const reply = JSON.parse(line) as { ok: boolean; result?: T; error?: string; traceback?: string };
      if (!reply.ok) throw new Error(`celery_seeder ${String(requests[i]?.op)}: ${reply.error}\n${reply.traceback ?? ''}`);
      return reply.result as T;
    });
}
