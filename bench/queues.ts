// `npm run bench:queues`: what thousands of queues on one broker, and fifty brokers in one
// console, cost. For each system (BENCH_SYSTEMS, default `postgres,redis`: potatoq on PostgreSQL
// and on Redis) and each size (BENCH_QUEUE_COUNTS, default 50,500,5000) it seeds a broker with
// that many queues of real data (potatoq's own layout: waiting, running, retried and dead work),
// then a process of its own (bench/queues-measure.ts) reads it through the console's service with
// shared reads off: the overview, a page of the queue table, a search, the /metrics scrape and
// a trends sample. Printed: ms and broker calls per read, per queue, and ratios against the
// smallest size. Then (BENCH_BROKERS, default 50; 0 skips) that many brokers configured at
// once, half PostgreSQL table prefixes, half Redis key prefixes, plus one that is down (a port
// nothing listens on) and one that hangs (accepts, never answers): one
// spread snapshot (the scrape's and the sampler's read), its cost per broker and per minute,
// and the overview's summary line built from it. A script, not a test. docs/performance.md,
// "Thousands of queues" and "Fifty brokers".
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { countedDatabase } from '@/tests/support/counted-database';
import { seedLive } from '@/tests/support/pg-live-seed';
import { load, potatoqCli, potatoqEnv, ROOT } from './potatoq-side';
import { dropPrefix } from '@/tests/support/redis';
import { hangGate } from '@/tests/support/hang-gate';
import { seedRedisQueues } from '@/tests/support/redis-queues-seed';

const PG = process.env.POTATOQ_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const REDIS = process.env.POTATOQ_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const SYSTEMS = (process.env.BENCH_SYSTEMS ?? 'postgres,redis').split(',').filter(Boolean);
const COUNTS = (process.env.BENCH_QUEUE_COUNTS ?? '50,500,5000').split(',').map(Number);
const BROKERS = Number(process.env.BENCH_BROKERS ?? 50);
const log = (s: string) => console.log(s);

type Case = { ms: number; calls: number; bytes: number };
type QueuesResult = Record<'overview' | 'page' | 'search' | 'metrics' | 'trends', Case> & { queues: number };

function measure<T>(entries: Array<Record<string, unknown>>, mode: 'queues' | 'brokers'): T {
  const out = execFileSync(path.join(ROOT, 'node_modules/.bin/vite-node'), ['--config', 'vitest.config.ts', 'bench/queues-measure.ts'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_MODE: mode, POTATOQ_CONSOLE_BROKERS: JSON.stringify(entries), POTATOQ_CONSOLE_READ_CACHE_MS: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  }).toString();
  const line = out.split('\n').find((l) => l.startsWith('@@result '));
  if (!line) throw new Error(`queues-measure printed no result:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice('@@result '.length)) as T;
}

/** Live-shaped work over `n` queues: 4 waiting, 1 dead per queue; a running task per 5 queues. */
const sizes = (n: number) => ({ queues: n, waiting: 4 * n, running: Math.ceil(n / 5), retried: Math.ceil(n / 10), dead: n });

async function postgresBroker(url: string, prefix: string, n: number): Promise<Record<string, unknown>> {
  const options = { schema: 'public', table_prefix: prefix };
  potatoqCli(potatoqEnv(url, options), ['migrate']);
  const T = (x: string) => `"public"."${prefix}${x}"`;
  await seedLive(url, { jobs: T('jobs'), dead: T('dead'), results: T('results'), workers: T('workers') }, sizes(n), 'fresh');
  return { url, ...options, poolSize: 1 };
}

async function runQueues(system: string, rows: Array<{ system: string; n: number; r: QueuesResult }>) {
  for (const n of COUNTS) {
    const t0 = performance.now();
    if (system === 'postgres') {
      const db = await countedDatabase(PG, 'pqbench_queues');
      try {
        const entry = { id: 'bench', name: 'bench', ...(await postgresBroker(db.url, 'potatoq_', n)) };
        log(`  ${system} ${n} queues seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        rows.push({ system, n, r: measure<QueuesResult>([entry], 'queues') });
      } finally {
        await db.drop();
      }
    } else if (system === 'redis') {
      const c = new Redis(REDIS);
      const prefix = `pqbq${n}`;
      try {
        await seedRedisQueues(c, prefix, sizes(n));
        log(`  ${system} ${n} queues seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        rows.push({ system, n, r: measure<QueuesResult>([{ id: 'bench', name: 'bench', url: REDIS, prefix }], 'queues') });
      } finally {
        await dropPrefix(c, prefix);
        c.disconnect();
      }
    } else throw new Error(`BENCH_SYSTEMS: no system "${system}" here (postgres, redis)`);
    const r = rows.at(-1)!.r;
    if (r.queues < n) log(`  note: the overview listed ${r.queues} of ${n} queues`);
  }
}

const f = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

function reportQueues(rows: Array<{ system: string; n: number; r: QueuesResult }>) {
  log('\n| system | queues | read | ms | broker calls | answer KB | µs per queue | ms × smallest | queues × smallest |');
  log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const { system, n, r } of rows) {
    const base = rows.find((x) => x.system === system)!;
    for (const k of ['overview', 'page', 'search', 'metrics', 'trends'] as const) {
      const c = r[k];
      const ratio = c.ms / base.r[k].ms;
      log(
        `| ${system} | ${n.toLocaleString()} | ${k} | ${f(c.ms)} | ${c.calls} | ${(c.bytes / 1024).toFixed(0)} | ${((c.ms * 1000) / n).toFixed(0)} | ${ratio.toFixed(1)}× | ${(n / base.n).toFixed(0)}× |`,
      );
    }
  }
}

async function runBrokers(): Promise<void> {
  const half = Math.floor(BROKERS / 2);
  const db = await countedDatabase(PG, 'pqbench_brokers');
  const c = new Redis(REDIS);
  const entries: Array<Record<string, unknown>> = [];
  const gate = await hangGate({ host: '127.0.0.1', port: 1 });
  try {
    const t0 = performance.now();
    for (let i = 0; i < half; i++) entries.push({ id: `pg${i}`, name: `pg${i}`, ...(await postgresBroker(db.url, `b${i}_`, 20)) });
    for (let i = half; i < BROKERS - 2; i++) {
      await seedRedisQueues(c, `pqbb${i}`, sizes(20));
      entries.push({ id: `rd${i}`, name: `rd${i}`, url: REDIS, prefix: `pqbb${i}` });
    }
    // One broker that is down: a port nothing listens on.
    entries.push({ id: 'down', name: 'down', url: 'redis://127.0.0.1:1/0', prefix: 'none' });
    // One that hangs: the kernel accepts its connections, nothing ever answers.
    entries.push({ id: 'hung', name: 'hung', url: `redis://127.0.0.1:${gate.port}/0`, prefix: 'none' });
    log(`  ${BROKERS} brokers (20 queues each) seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const r = measure<{
      brokers: number;
      coldMs: number;
      coldCalls: number;
      snapshotMs: number;
      snapshotCalls: number;
      readMs: number[];
      spreadMs: number;
      summary: string;
      down: string[];
      metrics: Case;
    }>(entries, 'brokers');
    const sorted = [...r.readMs].sort((a, b) => a - b);
    const perMin = 60_000 / 15_000; // one scrape (or sample) read per 15 s snapshot
    log(
      `\n| brokers | first snapshot ms (connect + probe) | its broker calls | snapshot ms | spread of read times ms | read ms p50 / max | broker calls | per broker | per broker per minute (a scrape each 15 s) | /metrics ms | summary line |`,
    );
    log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    log(
      `| ${r.brokers} | ${f(r.coldMs)} | ${r.coldCalls} | ${f(r.snapshotMs)} | ${f(r.spreadMs)} | ${f(sorted[Math.floor(sorted.length / 2)] ?? 0)} / ${f(sorted.at(-1) ?? 0)} | ${r.snapshotCalls} | ${(r.snapshotCalls / r.brokers).toFixed(1)} | ${((r.snapshotCalls / r.brokers) * perMin).toFixed(0)} | ${f(r.metrics.ms)} | ${r.summary} |`,
    );
    log(`down: ${r.down.join(', ')}; metrics budget ${process.env.POTATOQ_CONSOLE_METRICS_BUDGET_MS ?? 'default'} ms`);
  } finally {
    await gate.close();
    for (let i = half; i < BROKERS - 2; i++) await dropPrefix(c, `pqbb${i}`);
    c.disconnect();
    await db.drop();
  }
}

async function main(): Promise<void> {
  log(`potatoq console queues benchmark: ${os.cpus().length} cores, load ${load()}, sizes ${COUNTS.join(', ')}`);
  const rows: Array<{ system: string; n: number; r: QueuesResult }> = [];
  for (const s of SYSTEMS) await runQueues(s, rows);
  if (rows.length) reportQueues(rows);
  if (BROKERS > 0) await runBrokers();
  log(`\nload ${load()}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
