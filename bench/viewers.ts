// `npm run bench:viewers`: what 1, 10 and 50 people watching the same broker cost it and the
// console. The production build (`next start`) serves a potatoq broker on PostgreSQL seeded like
// a live one (thousands of dead letters, several queues, running tasks, worker heartbeats), in
// a database of its own so the server's transaction count is the console's alone; simulated
// viewers poll the GET routes the overview, a queue page and the dead page poll, every 5 s, over
// loopback. Printed per viewer count: broker transactions per minute (pg_stat_database) and the
// server's CPU seconds per minute (/proc), with ratios against one viewer; with shared reads on
// (the default) and off (POTATOQ_CONSOLE_READ_CACHE_MS=0) in the same run. A script, not a test.
// See docs/performance.md, "Viewers".
import os from 'node:os';
import { countedDatabase } from '@/tests/support/counted-database';
import { seedLive } from '@/tests/support/pg-live-seed';
import { potatoqCli, potatoqEnv, startConsole } from './potatoq-side';
import { pollingViewers, treeCpuMs, type ViewerPaths } from './viewers-load';

const BASE = process.env.POTATOQ_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = num('BENCH_SECONDS', 60);
const SETTLE_S = num('BENCH_SETTLE_S', 11); // PostgreSQL 15 reports an idle backend's counts within 10 s
const POLL_MS = num('BENCH_POLL_MS', 5000);
const COUNTS = (process.env.BENCH_VIEWERS ?? '0,1,10,50').split(',').map(Number);
const MODES = (process.env.BENCH_MODES ?? 'shared,unshared').split(',') as Array<'shared' | 'unshared'>;
const SIZES = {
  queues: num('BENCH_QUEUES', 8),
  waiting: num('BENCH_WAITING', 50_000),
  running: num('BENCH_RUNNING', 2_000),
  retried: 1_000,
  dead: num('BENCH_DEAD', 5_000),
};
const B = 'bench';
const log = (s: string) => console.log(s);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** The GETs each open page polls (lib/client/hooks.ts), as three tabs of one viewer. */
function pagesOf(state: string): ViewerPaths {
  const b = `/api/brokers/${B}`;
  return {
    overview: [`${b}/queues`, `${b}/workers`],
    queue: [`${b}/queues`, `${b}/tasks?state=${encodeURIComponent(state)}&queue=bench-q03&limit=50`],
    dead: [`${b}/queues`, `${b}/dead?limit=50`, `${b}/dead/groups`],
  };
}

interface Row {
  mode: string;
  viewers: number;
  requests: number;
  errors: number;
  txPerMin: number;
  cpuSPerMin: number;
}

async function main(): Promise<void> {
  log(`potatoq console viewers benchmark: ${os.cpus().length} cores, load ${load()}, ${SECONDS} s per step, poll ${POLL_MS} ms`);
  const db = await countedDatabase(BASE, 'pqbench_viewers');
  const options = { schema: 'public', table_prefix: 'potatoq_' };
  const rows: Row[] = [];
  try {
    potatoqCli(potatoqEnv(db.url, options), ['migrate']);
    const T = (n: string) => `"public"."potatoq_${n}"`;
    log(
      `seeding ${db.name}: ${SIZES.waiting.toLocaleString()} waiting in ${SIZES.queues} queues, ${SIZES.running.toLocaleString()} running, ${SIZES.dead.toLocaleString()} dead letters, 50 worker heartbeats`,
    );
    await seedLive(db.url, { jobs: T('jobs'), dead: T('dead'), results: T('results'), workers: T('workers') }, SIZES, 'fresh');
    for (const mode of MODES) {
      // Inherited by the server startConsole spawns; unset: the console's default (2 s).
      if (mode === 'unshared') process.env.POTATOQ_CONSOLE_READ_CACHE_MS = '0';
      else if (process.env.BENCH_READ_CACHE_MS) process.env.POTATOQ_CONSOLE_READ_CACHE_MS = process.env.BENCH_READ_CACHE_MS;
      else delete process.env.POTATOQ_CONSOLE_READ_CACHE_MS;
      const server = await startConsole({ id: B, name: 'Bench', url: db.url, ...options });
      if (!server) throw new Error('no production build (.next/BUILD_ID): run `npx next build` first');
      try {
        const o = (await (await fetch(`${server.url}/api/brokers/${B}/queues`)).json()) as {
          model: { states: Array<{ key: string; plays?: string }> };
        };
        const state = o.model.states.find((s) => s.plays === 'waiting')?.key ?? o.model.states[0]!.key;
        const pages = pagesOf(state);
        // One pass over every page first: compiled routes and the adapter's pool, outside the counts.
        await pollingViewers(server.url, pages, 1, 1, 100);
        for (const n of COUNTS) {
          await sleep(SETTLE_S * 1000);
          const tx0 = await db.settledTransactions(1000);
          const cpu0 = treeCpuMs(server.pid);
          const r = await pollingViewers(server.url, pages, n, SECONDS, POLL_MS);
          const cpu1 = treeCpuMs(server.pid);
          await sleep(SETTLE_S * 1000);
          const tx1 = await db.settledTransactions(1000);
          // Per minute of viewing: the quiet settling time around it is in every step alike.
          const perMin = 60 / SECONDS;
          const row = { mode, viewers: n, ...r, txPerMin: (tx1 - tx0) * perMin, cpuSPerMin: ((cpu1 - cpu0) / 1000) * perMin };
          rows.push(row);
          log(
            `  ${mode.padEnd(8)} ${String(n).padStart(3)} viewers: ${r.requests} requests (${r.errors} failed), ${row.txPerMin.toFixed(0)} broker transactions/min, ${row.cpuSPerMin.toFixed(2)} server CPU s/min (load ${load()})`,
          );
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await db.drop();
  }
  report(rows);
}

function report(rows: Row[]): void {
  log('\n| reads | viewers | requests/min | broker transactions/min | × 1 viewer | server CPU s/min | × 1 viewer |');
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const one = rows.find((x) => x.mode === r.mode && x.viewers === 1);
    const x = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(1)}×` : '—');
    log(
      `| ${r.mode} | ${r.viewers} | ${((r.requests * 60) / SECONDS).toFixed(0)} | ${r.txPerMin.toFixed(0)} | ${x(r.txPerMin, one?.txPerMin)} | ${r.cpuSPerMin.toFixed(2)} | ${x(r.cpuSPerMin, one?.cpuSPerMin)} |`,
    );
  }
  const failed = rows.reduce((s, r) => s + r.errors, 0);
  if (failed) log(`\n${failed} requests failed: the figures above are not a clean run`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
