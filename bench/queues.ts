// `npm run bench:queues`: what thousands of queues on one broker, and fifty brokers in one
// console, cost. For each system (BENCH_SYSTEMS, default `postgres,redis,rabbitmq,celery,
// queueflow`: potatoq on PostgreSQL, Redis and RabbitMQ 4, Celery on Redis, QueueFlow) and each
// size (BENCH_QUEUE_COUNTS, default 50,500,5000) it seeds a broker with that many queues of real
// data in the system's own layout (bench/queues-systems.ts),
// then a process of its own (bench/queues-measure.ts) reads it through the console's service with
// shared reads off: the overview, a page of the queue table, a search, the /metrics scrape and
// a trends sample. Printed: ms and broker calls per read, per queue, and ratios against the
// smallest size. Then (BENCH_BROKERS, default 50; 0 skips) that many brokers configured at
// once, half PostgreSQL table prefixes, half Redis key prefixes, plus one that is down (a port
// nothing listens on) and one that hangs (accepts, never answers): one spread snapshot (the
// scrape's and the sampler's read), its cost per broker and per minute (the second snapshot and
// the steady state, the sixth),
// and the overview's summary line built from it. A script, not a test. docs/performance.md,
// "Thousands of queues" and "Fifty brokers".
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { countedDatabase } from '@/tests/support/counted-database';
import { load, ROOT } from './potatoq-side';
import { dropPrefix } from '@/tests/support/redis';
import { hangGate } from '@/tests/support/hang-gate';
import { seedRedisQueues } from '@/tests/support/redis-queues-seed';
import { postgresBroker, REDIS, SEEDERS, sizes } from './queues-systems';

const PG = process.env.POTATOQ_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const SYSTEMS = (process.env.BENCH_SYSTEMS ?? 'postgres,redis,rabbitmq,celery,queueflow').split(',').filter(Boolean);
const COUNTS = (process.env.BENCH_QUEUE_COUNTS ?? '50,500,5000').split(',').map(Number);
const BROKERS = Number(process.env.BENCH_BROKERS ?? 50);
const log = (s: string) => console.log(s);

type Case = { ms: number; calls: number; bytes: number };
type QueuesResult = Record<'overview' | 'page' | 'search' | 'metrics' | 'trends', Case> & { queues: number };

function measure<T>(entries: Array<Record<string, unknown>>, mode: 'queues' | 'brokers'): T {
  const out = execFileSync(path.join(ROOT, 'node_modules/.bin/vite-node'), ['--config', 'vitest.config.ts', 'bench/queues-measure.ts'], {
    cwd: ROOT,
    env: {
      // A read past the console's 10 s default is timed to its end (and flagged in the table).
      POTATOQ_CONSOLE_READ_TIMEOUT_MS: '300000',
      ...process.env,
      BENCH_MODE: mode,
      POTATOQ_CONSOLE_BROKERS: JSON.stringify(entries),
      POTATOQ_CONSOLE_READ_CACHE_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  }).toString();
  const line = out.split('\n').find((l) => l.startsWith('@@result '));
  if (!line) throw new Error(`queues-measure printed no result:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice('@@result '.length)) as T;
}

async function runQueues(system: string, rows: Array<{ system: string; n: number; r: QueuesResult }>) {
  const seed = SEEDERS[system];
  if (!seed) throw new Error(`BENCH_SYSTEMS: no system "${system}" here (${Object.keys(SEEDERS).join(', ')})`);
  for (const n of COUNTS) {
    const t0 = performance.now();
    const s = await seed(n).catch((e: unknown) => void log(`  ${system} ${n}: the seed failed (${String(e).slice(0, 300)})`));
    if (!s) continue;
    try {
      log(`  ${system} ${n} queues seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s${s.note ? ` (${s.note})` : ''}`);
      rows.push({ system, n, r: measure<QueuesResult>([{ id: 'bench', name: 'bench', ...s.entry }], 'queues') });
    } catch (e) {
      log(`  ${system} ${n}: the reads failed (${String(e).slice(0, 300)}); the next size is still measured`);
      continue;
    } finally {
      // A failed cleanup is said, never put over the error of the measurement.
      await s.cleanup().catch((e: unknown) => log(`  could not clean up after ${system} ${n}: ${String(e)}`));
    }
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
        `| ${system} | ${n.toLocaleString()} | ${k} | ${f(c.ms)}${c.ms > 10_000 ? ' (over the 10 s read timeout)' : ''} | ${c.calls} | ${(c.bytes / 1024).toFixed(0)} | ${((c.ms * 1000) / n).toFixed(0)} | ${ratio.toFixed(1)}× | ${(n / base.n).toFixed(0)}× |`,
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
      `\n| brokers | first snapshot ms (connect + probe) | its broker calls | snapshot ms | spread of read times ms | read ms p50 / max | broker calls | per broker | per broker per minute (a scrape each 15 s) | steady-state calls (6th snapshot) | per broker | per broker per minute | /metrics ms | summary line |`,
    );
    log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    log(
      `| ${r.brokers} | ${f(r.coldMs)} | ${r.coldCalls} | ${f(r.snapshotMs)} | ${f(r.spreadMs)} | ${f(sorted[Math.floor(sorted.length / 2)] ?? 0)} / ${f(sorted.at(-1) ?? 0)} | ${r.snapshotCalls} | ${(r.snapshotCalls / r.brokers).toFixed(1)} | ${((r.snapshotCalls / r.brokers) * perMin).toFixed(0)} | ${r.metrics.calls} | ${(r.metrics.calls / r.brokers).toFixed(1)} | ${((r.metrics.calls / r.brokers) * perMin).toFixed(0)} | ${f(r.metrics.ms)} | ${r.summary} |`,
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
  // Each system's table as soon as it is measured: a later system's failure loses none of it.
  for (const s of SYSTEMS) {
    await runQueues(s, rows);
    reportQueues(rows.filter((r) => r.system === s));
  }
  if (BROKERS > 0) await runBrokers();
  log(`\nload ${load()}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
