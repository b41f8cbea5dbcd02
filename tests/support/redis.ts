// Test helpers for the Redis storage layer (not shipped code): the Redis URL, the loud skip,
// a unique key prefix per test with its keys deleted afterwards, the potatoq seeder
// (tests/py/seeder_redis.py), the real CLI and real workers (tests/py/rt_redis_tasks.py).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '@/tests/support/free-port';
import { POTATOQ, ROOT, spawnPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { redisProblem } from '@/tests/support/redis-ping';
import { globEscape } from '@/lib/brokers/potatoq/redis/keys';
import { connectRedis } from '@/lib/transports/redis/server';

export const REDIS_URL = process.env.POTATOQ_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
export const PY_DIR = path.join(ROOT, 'tests/py');

/** True when Redis answers; otherwise a loud line (a failure under POTATOQ_CONSOLE_REQUIRE_SERVICES=1). */
export async function redisAvailable(): Promise<boolean> {
  const why = await redisProblem(REDIS_URL);
  if (why === null) return true;
  const line = `\n!!! Redis is not reachable at ${REDIS_URL} (${why}): SKIPPING the Redis storage-layer suites (scripts/services.sh up redis) !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return false;
}

/** Valkey (`scripts/services.sh up valkey`), as a `valkey://` URL; unset when not configured. */
export const VALKEY_URL = process.env.POTATOQ_TEST_VALKEY_URL;

/** A server the Redis suites run on: `redis` (POTATOQ_TEST_REDIS_URL) or `valkey` (POTATOQ_TEST_VALKEY_URL). */
export interface RedisTarget {
  name: 'redis' | 'valkey';
  url: string;
}

/**
 * The servers that answer, for suites parameterised over them: Redis (as redisAvailable) and
 * Valkey. A Valkey that is not configured or does not answer is a loud skip (a failure under
 * POTATOQ_CONSOLE_REQUIRE_SERVICES=1).
 */
export async function redisTargets(): Promise<RedisTarget[]> {
  const out: RedisTarget[] = [];
  if (await redisAvailable()) out.push({ name: 'redis', url: REDIS_URL });
  const why = VALKEY_URL ? await redisProblem(VALKEY_URL) : 'POTATOQ_TEST_VALKEY_URL is not set';
  if (why === null && VALKEY_URL) {
    out.push({ name: 'valkey', url: VALKEY_URL });
    return out;
  }
  const line = `\n!!! Valkey is not reachable (${why}): SKIPPING the Valkey runs of the Redis suites (scripts/services.sh up valkey; scripts/services.sh env) !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return out;
}

export const newPrefix = () => `ctr${randomBytes(5).toString('hex')}`;

/** Deletes every key that starts with `start`, taken literally (SCAN, never KEYS). */
export async function dropKeysStartingWith(client: Redis, start: string): Promise<void> {
  let cur = '0';
  do {
    const [next, keys] = await client.scan(cur, 'MATCH', `${globEscape(start)}*`, 'COUNT', 1000);
    cur = next;
    if (keys.length) await client.del(...keys);
  } while (cur !== '0');
}

/** The same on a connection of its own to `url`, closed afterwards. */
export async function dropKeysAt(url: string, start: string): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    await dropKeysStartingWith(r, start);
  } finally {
    r.disconnect();
  }
}

/** Deletes every key under `prefix:`. */
export const dropPrefix = (client: Redis, prefix: string): Promise<void> => dropKeysStartingWith(client, `${prefix}:`);

export const testClient = (url = REDIS_URL) => connectRedis(url);

/** One isolated potatoq world: prefix, default queue, output folder and the env its processes read. */
export interface World {
  prefix: string;
  queue: string;
  out: string;
  env: Record<string, string>;
}

/** `url`: the server (Redis by default; a `valkey://` URL is passed to potatoq as it is). */
export function newWorld(extra: Record<string, string> = {}, url = REDIS_URL): World {
  const prefix = newPrefix();
  const queue = `q-${prefix}`;
  const out = mkdtempSync(path.join(os.tmpdir(), 'ctr-redis-'));
  return {
    prefix,
    queue,
    out,
    env: { RT_BROKER: url, RT_PREFIX: prefix, RT_QUEUE: queue, RT_OUT: out, POTATOQ_NO_EMOJI: '1', PYTHONUNBUFFERED: '1', ...extra },
  };
}

/** Deletes the world's keys and its output folder. */
export async function dropWorld(client: Redis, w: World): Promise<void> {
  await dropPrefix(client, w.prefix);
  rmSync(w.out, { recursive: true, force: true });
}

/** tests/py/seeder_redis.py for this world (spawnPySeeder passes the process env on). */
export function spawnRedisSeeder(w: World): PySeeder {
  const saved = Object.fromEntries(Object.keys(w.env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, w.env);
  try {
    return spawnPySeeder('seeder_redis.py', []);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const run = promisify(execFile);

/** The real `potatoq` CLI on this world (`-A rt_redis_tasks`); stdout. */
export async function potatoqCli(w: World, args: string[]): Promise<string> {
  const { stdout } = await run(POTATOQ, ['-A', 'rt_redis_tasks', '--no-color', '--no-emoji', ...args], {
    cwd: PY_DIR,
    env: { ...process.env, ...w.env },
    maxBuffer: 64 << 20,
  });
  return stdout;
}

export interface CliDeadLetter {
  id: string;
  queue: string;
  task: string | null;
  reason: string;
  died_at: number;
}

/** `potatoq dead list --json --limit n`. */
export async function cliDeadList(w: World, limit = 1000): Promise<CliDeadLetter[]> {
  return JSON.parse(await potatoqCli(w, ['dead', 'list', '--json', '--limit', String(limit)])) as CliDeadLetter[];
}

/** A real `potatoq worker` (solo unless `pool` says otherwise) on this world's queues. */
export class Worker {
  log = '';
  private child: ChildProcess | null = null;
  constructor(private readonly w: World) {}

  start(queues: string[], opts: { pool?: 'solo' | 'prefork'; concurrency?: number; env?: Record<string, string> } = {}): void {
    const args = [
      '-A',
      'rt_redis_tasks',
      '--no-color',
      '--no-emoji',
      'worker',
      '-P',
      opts.pool ?? 'solo',
      '-Q',
      queues.join(','),
      '--no-scheduler',
    ];
    if (opts.concurrency) args.push('-c', String(opts.concurrency));
    const c = spawn(POTATOQ, args, { cwd: PY_DIR, env: { ...process.env, ...this.w.env, ...opts.env } });
    c.stdout?.on('data', (d: Buffer) => (this.log += d.toString()));
    c.stderr?.on('data', (d: Buffer) => (this.log += d.toString()));
    this.child = c;
  }

  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => c.kill('SIGKILL'), 15_000);
      c.on('exit', () => (clearTimeout(kill), resolve()));
      c.kill('SIGTERM');
    });
  }
}

export interface RunRecord {
  id: string;
  args: string[];
  types: string[];
  kwargs: Record<string, string>;
  /** time.time() when the task ran. */
  at: number;
}

/** Every run `rt.record` wrote in this world, by task id (a list: a task run twice has two). */
export function runs(w: World): Map<string, RunRecord[]> {
  const m = new Map<string, RunRecord[]>();
  for (const f of readdirSync(w.out)) {
    if (!f.endsWith('.json')) continue;
    const r = JSON.parse(readFileSync(path.join(w.out, f), 'utf8')) as RunRecord;
    m.set(r.id, [...(m.get(r.id) ?? []), r]);
  }
  return m;
}

/** True when the `redis-server` binary is here; otherwise a loud line (a failure when services are required). */
export function redisServerAvailable(suite: string): boolean {
  if (spawnSync('redis-server', ['--version']).status === 0) return true;
  const line = `\n!!! redis-server is not installed: SKIPPING ${suite} (scripts/services.sh up redis) !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return false;
}

/** A private redis-server of this test (free port, AOF with fsync always, its own folder). */
export class PrivateRedis {
  dir = '';
  port = 0;
  private child: ChildProcess | null = null;
  private clients: Redis[] = [];

  /** `extra`: more redis-server arguments (`--maxmemory-policy allkeys-lru`, `--cluster-enabled yes`, ...). */
  constructor(private readonly extra: string[] = []) {}

  /** The unix socket, when started with `--unixsocket` under `socketPath()`. */
  socketPath(): string {
    return path.join(this.dir, 'redis.sock');
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** Starts it (again, on the same files) and returns a connected client once the AOF is loaded. */
  async start(): Promise<Redis> {
    if (!this.port) this.port = await freePort();
    if (!this.dir) this.dir = mkdtempSync(path.join(os.tmpdir(), 'ctr-redis-private-'));
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--daemonize',
        'no',
        ...this.extra.map((a) => a.replace('{dir}', this.dir)),
      ],
      { stdio: 'ignore' },
    );
    const c = this.client();
    for (let i = 0; ; i++) {
      try {
        await c.ping();
        if ((await c.info('persistence')).includes('loading:0')) return c;
      } catch (e) {
        if (i > 100) throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  client(): Redis {
    const c = connectRedis(this.url);
    this.clients.push(c);
    return c;
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const c = this.child;
    this.child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.on('exit', () => resolve());
      c.kill(signal);
    });
  }

  async stop(): Promise<void> {
    for (const c of this.clients.splice(0)) c.disconnect();
    await this.kill('SIGTERM');
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

export { until } from '@/tests/support/solo-worker';
