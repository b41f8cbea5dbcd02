// `npm run bench:viewers`: what 1, 10 and 50 people watching the same broker cost it and the
// console. The production build (`next start`) serves a potatoq broker on PostgreSQL seeded like
// a live one (thousands of dead letters, several queues, running tasks, worker heartbeats), in
// a database of its own so the server's transaction count is the console's alone; simulated
// viewers poll the GET routes the overview, a queue page and the dead page poll, every 5 s, over
// loopback. Printed per viewer count: broker transactions per minute (pg_stat_database) and the
// server's CPU seconds per minute (/proc), with ratios against one viewer; with shared reads on
// (the default) and off (POTATOQ_CONSOLE_READ_CACHE_MS=0) in the same run. Then the same tables
// configured as 1 and as 50 brokers, one viewer on the overview page and a /metrics scrape: the
// cost per broker. A script, not a test. See docs/performance.md, "Viewers" and "Brokers".
import os from 'node:os';
import { POLL_MS as POLL_DEFAULT, jitteredPoll } from '@/lib/client/refresh';
import { countedDatabase, type CountedDatabase } from '@/tests/support/counted-database';
import { seedLive } from '@/tests/support/pg-live-seed';
import { potatoqCli, potatoqEnv, startConsole, type Dashboard } from './potatoq-side';
import { captureAnswers, startFloor } from './viewers-floor';
import { benchRandom, polling, treeCpuMs, type Poller } from './viewers-load';

const BASE = process.env.POTATOQ_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = num('BENCH_SECONDS', 60);
const SETTLE_S = num('BENCH_SETTLE_S', 11); // PostgreSQL 15 reports an idle backend's counts within 10 s
const POLL_MS = num('BENCH_POLL_MS', POLL_DEFAULT);
const COUNTS = (process.env.BENCH_VIEWERS ?? '0,1,10,50').split(',').map(Number);
const MODES = (process.env.BENCH_MODES ?? 'shared,unshared').split(',') as Array<'shared' | 'unshared'>;
const BROKERS = num('BENCH_BROKERS', 50);
const FLOOR = num('BENCH_FLOOR', 1) > 0;
const BROKER_POOL = num('BENCH_BROKER_POOL', 1);
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

/** The GETs each open page polls (lib/client/hooks.ts): a viewer has all three open. */
function pagesOf(b: string, state: string): string[][] {
  const p = `/api/brokers/${b}`;
  return [
    [`${p}/queues`, `${p}/workers`],
    [`${p}/queues`, `${p}/tasks?state=${encodeURIComponent(state)}&queue=bench-q03&limit=50`],
    [`${p}/queues`, `${p}/dead?limit=50`, `${p}/dead/groups`],
  ];
}

/** `n` viewers who opened the console at different moments; each page polls at its own
 *  jittered interval, as the browser does (lib/client/refresh.tsx). */
const everyMs = (random: () => number) => Math.round((jitteredPoll(random) * POLL_MS) / POLL_DEFAULT);

function viewerPollers(n: number, pages: string[][]): Poller[] {
  const random = benchRandom();
  return Array.from({ length: n }, () => pages.map((paths) => ({ paths, everyMs: everyMs(random), offsetMs: random() * POLL_MS }))).flat();
}

/** One viewer on the overview page of `ids`: every broker's card mounted at once (its
 *  overview and workers), and Prometheus scraping /metrics every 15 s. */
function homePollers(ids: string[]): Poller[] {
  const random = benchRandom();
  const cards = ids.map((b) => ({
    paths: [`/api/brokers/${b}/queues`, `/api/brokers/${b}/workers`],
    everyMs: everyMs(random),
    offsetMs: 0,
  }));
  return [...cards, { paths: ['/metrics'], everyMs: 15_000, offsetMs: 0 }];
}

interface Row {
  step: string;
  n: number;
  requests: number;
  errors: number;
  /** Answered 304: unchanged since that page's last answer. */
  unchanged: number;
  txPerMin: number;
  cpuSPerMin: number;
}

/** One measured step: quiet before and after (the statistics settle), the load in between. */
async function measure(db: CountedDatabase, server: Dashboard, step: string, n: number, pollers: Poller[]): Promise<Row> {
  await sleep(SETTLE_S * 1000);
  const tx0 = await db.settledTransactions(1000, { clientsOpen: true });
  const cpu0 = treeCpuMs(server.pid);
  const r = await polling(server.url, pollers, SECONDS);
  const cpu1 = treeCpuMs(server.pid);
  await sleep(SETTLE_S * 1000);
  const tx1 = await db.settledTransactions(1000, { clientsOpen: true });
  // Per minute of load: the quiet settling time around it is in every step alike.
  const perMin = 60 / SECONDS;
  const row = { step, n, ...r, txPerMin: (tx1 - tx0) * perMin, cpuSPerMin: ((cpu1 - cpu0) / 1000) * perMin };
  log(
    `  ${step.padEnd(16)} ${String(n).padStart(3)}: ${r.requests} requests (${r.unchanged} unchanged 304, ${r.errors} failed), ${row.txPerMin.toFixed(0)} broker transactions/min, ${row.cpuSPerMin.toFixed(2)} server CPU s/min (load ${load()})`,
  );
  return row;
}

/** The same viewers (the largest count) against a bare node:http server answering the bytes
 *  the console answered (bench/viewers-floor.ts): what the requests cost without the console. */
async function measureFloor(db: CountedDatabase, url: string, pages: string[][]): Promise<Row> {
  const floor = await startFloor(await captureAnswers(url, pages.flat()));
  try {
    const n = Math.max(...COUNTS);
    return await measure(db, floor, 'floor node:http', n, viewerPollers(n, pages));
  } finally {
    await floor.stop();
  }
}

/** The console's build serving `entries`, shared reads as `cacheMs` says (undefined: its default). */
async function serve(entries: Array<Record<string, unknown>>, cacheMs: string | undefined): Promise<Dashboard> {
  // Inherited by the server startConsole spawns.
  if (cacheMs === undefined) delete process.env.POTATOQ_CONSOLE_READ_CACHE_MS;
  else process.env.POTATOQ_CONSOLE_READ_CACHE_MS = cacheMs;
  const server = await startConsole(entries);
  if (!server) throw new Error('no production build (.next/BUILD_ID): run `npx next build` first');
  return server;
}

async function main(): Promise<void> {
  log(`potatoq console viewers benchmark: ${os.cpus().length} cores, load ${load()}, ${SECONDS} s per step, poll ${POLL_MS} ms`);
  const db = await countedDatabase(BASE, 'pqbench_viewers');
  const options = { schema: 'public', table_prefix: 'potatoq_' };
  const entry = (id: string) => ({ id, name: id, url: db.url, ...options });
  const rows: Row[] = [];
  try {
    potatoqCli(potatoqEnv(db.url, options), ['migrate']);
    const T = (n: string) => `"public"."potatoq_${n}"`;
    log(
      `seeding ${db.name}: ${SIZES.waiting.toLocaleString()} waiting in ${SIZES.queues} queues, ${SIZES.running.toLocaleString()} running, ${SIZES.dead.toLocaleString()} dead letters, 50 worker heartbeats`,
    );
    await seedLive(db.url, { jobs: T('jobs'), dead: T('dead'), results: T('results'), workers: T('workers') }, SIZES, 'fresh');
    for (const mode of MODES) {
      const server = await serve([entry(B)], mode === 'unshared' ? '0' : process.env.BENCH_READ_CACHE_MS);
      try {
        const o = (await (await fetch(`${server.url}/api/brokers/${B}/queues`)).json()) as {
          model: { states: Array<{ key: string; plays?: string }> };
        };
        const state = o.model.states.find((s) => s.plays === 'waiting')?.key ?? o.model.states[0]!.key;
        const pages = pagesOf(B, state);
        // One pass over every page first: compiled routes and the adapter's pool, outside the counts.
        await polling(server.url, viewerPollers(1, pages), 0.1);
        for (const n of COUNTS) rows.push(await measure(db, server, `viewers ${mode}`, n, viewerPollers(n, pages)));
        if (FLOOR && mode === MODES[0]) rows.push(await measureFloor(db, server.url, pages));
      } finally {
        await server.stop();
      }
    }
    // Brokers: the same tables configured once and BROKERS times (each entry its own adapter and pool).
    for (const k of BROKERS > 0 ? [1, BROKERS] : []) {
      const ids = Array.from({ length: k }, (_, i) => `b${String(i).padStart(2, '0')}`);
      // One read connection each (`poolSize`), so fifty pools fit in one server's connections.
      const server = await serve(
        ids.map((id) => ({ ...entry(id), poolSize: BROKER_POOL })),
        process.env.BENCH_READ_CACHE_MS,
      );
      try {
        await polling(server.url, homePollers(ids), 0.1);
        rows.push(await measure(db, server, 'brokers', k, homePollers(ids)));
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
  log(
    '\n| step | viewers / brokers | requests/min | of them 304 | broker transactions/min | ratio | server CPU s/min | ratio | CPU ms/request |',
  );
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const one = rows.find((x) => x.step === r.step && x.n === 1);
    const x = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(1)}×` : '—');
    log(
      `| ${r.step} | ${r.n} | ${((r.requests * 60) / SECONDS).toFixed(0)} | ${r.requests ? `${((100 * r.unchanged) / r.requests).toFixed(0)}%` : '—'} | ${r.txPerMin.toFixed(0)} | ${x(r.txPerMin, one?.txPerMin)} | ${r.cpuSPerMin.toFixed(2)} | ${x(r.cpuSPerMin, one?.cpuSPerMin)} | ${r.requests ? ((r.cpuSPerMin * 1000 * SECONDS) / 60 / r.requests).toFixed(2) : '—'} |`,
    );
  }
  const failed = rows.reduce((s, r) => s + r.errors, 0);
  if (failed) log(`\n${failed} requests failed: the figures above are not a clean run`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
