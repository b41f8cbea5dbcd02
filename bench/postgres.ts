// `npm run bench:postgres`: the PostgreSQL adapter against potatoq's layout at scale (1M
// waiting tasks in 20 queues, 50k running, 100k dead letters), next to potatoq's own CLI on
// the same database in the same run. A script, not a test: it prints numbers, and the
// bench schema is dropped at the end. See docs/performance.md.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { ZDeadListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import { encodeCursor } from '@/lib/brokers/cursor';
import { migrate, seed, SIZES, type BenchTarget } from './pg-seed';

const ROOT = path.resolve(__dirname, '..');
const URL = process.env.POTATOQ_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const ITER = Number(process.env.BENCH_ITERATIONS ?? 40);
const log = (s: string) => console.log(s);

async function admin<R>(t: BenchTarget, text: string): Promise<R[]> {
  const c = new pg.Client({ connectionString: t.url, statement_timeout: 0 });
  await c.connect();
  try {
    return (await c.query(text)).rows as R[];
  } finally {
    await c.end();
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Runs every case round-robin (so a load spike from elsewhere hits all cases alike) after
 *  3 warm-ups each; returns per-case samples in ms. */
async function timeAll(cases: Array<() => Promise<unknown>>, n = ITER): Promise<number[][]> {
  for (const fn of cases) for (let i = 0; i < 3; i++) await fn();
  const xs: number[][] = cases.map(() => []);
  for (let i = 0; i < n; i++) {
    for (const [k, fn] of cases.entries()) {
      const t0 = performance.now();
      await fn();
      xs[k]!.push(performance.now() - t0);
    }
  }
  return xs;
}

function cli(t: BenchTarget, args: string[]): number {
  const t0 = performance.now();
  execFileSync(path.join(ROOT, '.venv/bin/potatoq'), ['-A', 'rt_pg_tasks', '--no-color', '--no-emoji', ...args], {
    cwd: path.join(ROOT, 'tests/py'),
    env: t.env,
    stdio: 'pipe',
    maxBuffer: 64 << 20,
  });
  return performance.now() - t0;
}
function pythonStartup(t: BenchTarget): number {
  const runs = [0, 1, 2].map(() => {
    const t0 = performance.now();
    execFileSync(path.join(ROOT, '.venv/bin/python'), ['-c', 'import rt_pg_tasks, potatoq.cli'], {
      cwd: path.join(ROOT, 'tests/py'),
      env: t.env,
      stdio: 'pipe',
    });
    return performance.now() - t0;
  });
  return Math.min(...runs);
}
const median3 = (f: () => number) => pct([f(), f(), f()], 50);

async function main(): Promise<void> {
  // BENCH_SCHEMA reuses an already seeded schema (kept afterwards) and skips the writes.
  const reuse = process.env.BENCH_SCHEMA;
  const schema = reuse ?? `pqbench_${randomBytes(4).toString('hex')}`;
  log(
    `potatoq console PostgreSQL benchmark: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}, schema ${schema}`,
  );
  let t: BenchTarget | null = null;
  try {
    t = migrate(ROOT, URL, schema);
    if (!reuse) {
      log(
        `seeding ${SIZES.ready.toLocaleString()} ready + ${SIZES.scheduled.toLocaleString()} scheduled in ${SIZES.queues} queues, ${SIZES.running.toLocaleString()} running, ${SIZES.dead.toLocaleString()} dead letters (+ results)`,
      );
      const seedMs = await seed(t, log);
      log(`  seeded and vacuumed in ${(seedMs / 1000).toFixed(1)} s`);
    }
    const [version] = await admin<{ v: string }>(t, 'SELECT version() AS v');
    log(`  ${version?.v.split(' on ')[0]}`);
    const a = createPostgresAdapter({
      id: 'bench',
      name: 'bench',
      url: URL,
      readOnly: false,
      options: {
        schema,
        table_prefix: t.prefix,
        ...(process.env.BENCH_COUNT_CAP ? { countCap: Number(process.env.BENCH_COUNT_CAP) } : {}),
      },
    });
    const J = t.table('jobs');
    const one = async <R>(sql: string) => (await admin<R>(t!, sql))[0]!;
    const readyAll = await one<{ priority: number; seq: string }>(
      `SELECT priority, seq FROM ${J} WHERE state = 1 ORDER BY priority DESC, seq OFFSET 500000 LIMIT 1`,
    );
    const readyQ = await one<{ priority: number; seq: string }>(
      `SELECT priority, seq FROM ${J} WHERE state = 1 AND queue = 'bench-q07' ORDER BY priority DESC, seq OFFSET 40000 LIMIT 1`,
    );
    const sched = await one<{ k: string; seq: string }>(
      `SELECT run_at::text AS k, seq FROM ${J} WHERE state = 0 ORDER BY run_at, seq OFFSET 40000 LIMIT 1`,
    );
    const running = await one<{ k: string; seq: string }>(
      `SELECT coalesce(claimed_at, '-infinity')::text AS k, seq FROM ${J} WHERE state = 2 ORDER BY coalesce(claimed_at, '-infinity'), seq OFFSET 40000 LIMIT 1`,
    );
    const deadDeep = await one<{ k: string; id: string }>(
      `SELECT died_at::text AS k, id FROM ${t.table('dead')} ORDER BY died_at DESC, id OFFSET 90000 LIMIT 1`,
    );
    const tasks = (q: Record<string, unknown>) => () => a.listTasks(ZTaskListQuery.parse({ limit: 50, ...q }));
    const dead = (q: Record<string, unknown>) => () => a.listDead(ZDeadListQuery.parse({ limit: 50, ...q }));
    const cases: Array<[string, () => Promise<unknown>, number]> = [
      ['overview (20 queues, capped counts)', () => a.overview(), 25],
      ['ready, one queue, page 1', tasks({ queue: 'bench-q07' }), 15],
      [
        'ready, one queue, page 801 (offset 40,000)',
        tasks({ queue: 'bench-q07', cursor: encodeCursor('pg-tasks:ready', [readyQ.priority, readyQ.seq]) }),
        15,
      ],
      ['ready, all queues, page 1', tasks({}), 15],
      [
        'ready, all queues, page 10,001 (offset 500,000)',
        tasks({ cursor: encodeCursor('pg-tasks:ready', [readyAll.priority, readyAll.seq]) }),
        15,
      ],
      ['scheduled, page 1', tasks({ state: 'scheduled' }), 15],
      ['scheduled, page 801', tasks({ state: 'scheduled', cursor: encodeCursor('pg-tasks:scheduled', [sched.k, sched.seq]) }), 15],
      ['running, page 1 (50k running)', tasks({ state: 'running' }), 15],
      ['running, page 801', tasks({ state: 'running', cursor: encodeCursor('pg-tasks:running', [running.k, running.seq]) }), 15],
      ['dead letters, page 1', dead({}), 15],
      ['dead letters, page 1,801 (offset 90,000)', dead({ cursor: encodeCursor('pg-dead', [deadDeep.k, deadDeep.id]) }), 15],
      ['dead letters, one queue, page 1', dead({ queue: 'bench-q03' }), 15],
      ['dead-letter search "upstream" (newest 10,000)', dead({ q: 'upstream' }), 15],
      ['dead-letter groups (newest 10,000)', () => a.deadGroups({}), 0],
      ['task detail', () => a.getTask('r-123457'), 15],
      ['dead-letter detail', () => a.getDead('d-4242'), 15],
    ];
    log(`\nconsole adapter, ${ITER} rounds over all cases after 3 warm-ups each (ms, measured around the adapter call):`);
    const samples = await timeAll(cases.map(([, fn]) => fn));
    const results: Record<string, { p50: number; p95: number }> = {};
    for (const [k, [name, , target]] of cases.entries()) {
      const xs = samples[k]!;
      const r = (results[name] = { p50: pct(xs, 50), p95: pct(xs, 95) });
      const verdict = target
        ? r.p95 <= target
          ? `ok (target ${target})`
          : r.p50 <= target
            ? `p50 ok, p95 over ${target}`
            : `OVER target ${target}`
        : '';
      log(
        `  ${name.padEnd(50)} min ${Math.min(...xs)
          .toFixed(1)
          .padStart(6)}  p50 ${r.p50.toFixed(1).padStart(6)}  p95 ${r.p95.toFixed(1).padStart(6)}  ${verdict}`,
      );
    }
    log(
      `  (load average now ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')})`,
    );
    if (reuse) return void (await a.close());
    const ids = Array.from({ length: 10_000 }, (_, i) => `d-${i + 1}`);
    const t0 = performance.now();
    const replay = await a.replayDead(ids);
    const replayMs = performance.now() - t0;
    const rate = Math.round(replay.succeeded.length / (replayMs / 1000));
    log(
      `  ${'bulk replay of 10,000 dead letters'.padEnd(50)} ${replayMs.toFixed(0)} ms = ${rate.toLocaleString()} letters/s  ${rate >= 5000 ? 'ok' : 'UNDER'} (target 5,000/s; ${replay.failed.length} failed)`,
    );

    log(
      `\npotatoq ${execFileSync(path.join(ROOT, '.venv/bin/potatoq'), ['--version']).toString().trim()} CLI on the same database (wall time, median of 3):`,
    );
    const startup = pythonStartup(t);
    const queues = median3(() => cli(t!, ['queues', '--json']));
    const list = median3(() => cli(t!, ['dead', 'list', '--limit', '50', '--json']));
    const cliIds = Array.from({ length: 1000 }, (_, i) => `d-${20_001 + i}`);
    const retry = cli(t, ['dead', 'retry', ...cliIds]);
    const c0 = performance.now();
    await a.replayDead(Array.from({ length: 1000 }, (_, i) => `d-${30_001 + i}`));
    const ours1000 = performance.now() - c0;
    const net = (ms: number) => Math.max(1, ms - startup);
    const overview = results['overview (20 queues, capped counts)']!.p50;
    const page1 = results['dead letters, page 1']!.p50;
    log(`  python + potatoq import (subtracted below)         ${startup.toFixed(0)} ms`);
    log(
      `  potatoq queues --json                              ${queues.toFixed(0)} ms (${net(queues).toFixed(0)} net) vs console overview p50 ${overview.toFixed(1)} ms: ${(net(queues) / overview).toFixed(1)}x`,
    );
    log(
      `  potatoq dead list --limit 50 --json                ${list.toFixed(0)} ms (${net(list).toFixed(0)} net) vs console dead page 1 p50 ${page1.toFixed(1)} ms: ${(net(list) / page1).toFixed(1)}x`,
    );
    log(
      `  potatoq dead retry <1,000 ids>                     ${retry.toFixed(0)} ms (${Math.round(1000 / (net(retry) / 1000))}/s net) vs console replay of 1,000: ${ours1000.toFixed(0)} ms: ${(net(retry) / ours1000).toFixed(1)}x`,
    );
    await a.close();
  } finally {
    if (!reuse) {
      const c = new pg.Client({ connectionString: URL });
      try {
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        log(`\ndropped schema ${schema}`);
      } catch (e) {
        log(`\ncould not drop the bench schema (${(e as Error).message}): run DROP SCHEMA "${schema}" CASCADE`);
      } finally {
        await c.end().catch(() => undefined);
      }
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
