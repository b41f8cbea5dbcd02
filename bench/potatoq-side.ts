// potatoq's side of a benchmark run: a real worker churning through a queue while the console
// is measured, potatoq's own dashboard (`potatoq dashboard`, timed over HTTP and in-process) and
// its CLI, all on the benchmark's database (bench/py/bench_app.py is the app).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from '@/tests/support/free-port';

export const ROOT = path.resolve(__dirname, '..');
const POTATOQ = path.join(ROOT, '.venv/bin/potatoq');
const PYTHON = path.join(ROOT, '.venv/bin/python');
const CWD = path.join(ROOT, 'bench/py');
export const CHURN_QUEUE = 'bench-churn';

export function potatoqEnv(url: string, options: Record<string, unknown> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    BENCH_BROKER_URL: url,
    BENCH_BROKER_OPTIONS: JSON.stringify(options),
    POTATOQ_NO_EMOJI: '1',
    NO_COLOR: '1',
    PYTHONUNBUFFERED: '1',
  };
}

const base = ['-A', 'bench_app', '--no-color', '--no-emoji'];

export function potatoqCli(env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync(POTATOQ, [...base, ...args], { cwd: CWD, env, stdio: 'pipe', maxBuffer: 64 << 20 }).toString();
}

/** Wall time of one CLI command, minus nothing (an operator waits for all of it). */
export function timeCli(env: NodeJS.ProcessEnv, args: string[]): number {
  const t0 = performance.now();
  potatoqCli(env, args);
  return performance.now() - t0;
}

/** Python start-up plus importing the app and potatoq's CLI, to read the CLI figures net of it. */
export function pythonStartup(env: NodeJS.ProcessEnv): number {
  const runs = [0, 1, 2].map(() => {
    const t0 = performance.now();
    execFileSync(PYTHON, ['-c', 'import bench_app, potatoq.cli'], { cwd: CWD, env, stdio: 'pipe' });
    return performance.now() - t0;
  });
  return Math.min(...runs);
}

function spawnPotatoq(env: NodeJS.ProcessEnv, args: string[]): { child: ChildProcess; log: () => string } {
  let log = '';
  const child = spawn(POTATOQ, [...base, ...args], { cwd: CWD, env });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  return { child, log: () => log };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', () => (clearTimeout(kill), resolve()));
    child.kill('SIGTERM');
  });
}

export interface Churn {
  /** Tasks the worker finished so far (left in the churn queue, read by the caller). */
  stop(): Promise<void>;
  log(): string;
}

/** A real `potatoq worker` on the churn queue (threads pool, 4 threads). */
export function startChurn(env: NodeJS.ProcessEnv): Churn {
  const w = spawnPotatoq(env, ['worker', '-P', 'threads', '-t', '4', '-Q', CHURN_QUEUE, '--no-scheduler', '-l', 'WARNING']);
  return { stop: () => stop(w.child), log: w.log };
}

export interface Dashboard {
  url: string;
  /** The serving process, for its CPU time (`cpuMs`). */
  pid: number;
  stop(): Promise<void>;
}

/** A process's CPU time so far (user + system, all its threads) in ms, from /proc. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  return (Number(fields[11]) + Number(fields[12])) * tick;
}

/** `potatoq dashboard --read-only` on a free port, once it answers. */
export async function startDashboard(env: NodeJS.ProcessEnv): Promise<Dashboard> {
  const port = await freePort();
  const d = spawnPotatoq(env, ['dashboard', '--read-only', '--port', String(port)]);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (d.child.exitCode !== null) throw new Error(`potatoq dashboard exited: ${d.log()}`);
    const ok = await fetch(`${url}/api/overview`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { url, pid: d.child.pid ?? 0, stop: () => stop(d.child) };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop(d.child);
  throw new Error(`potatoq dashboard did not answer: ${d.log()}`);
}

/** The console's production build (`next build`) serving `broker` (or several) on a free loopback port
 *  (authentication off, as on loopback), once it answers; null without a build. */
const serverNodeArgs = () => (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

export async function startConsole(broker: Record<string, unknown> | Array<Record<string, unknown>>): Promise<Dashboard | null> {
  const dist = process.env.NEXT_DIST_DIR || '.next';
  if (!fs.existsSync(path.join(ROOT, dist, 'BUILD_ID'))) return null;
  const port = await freePort();
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-bench-console-'));
  let log = '';
  const child = spawn(
    process.execPath,
    // BENCH_SERVER_NODE_ARGS: flags for the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
    // (a profile of the measured server; NODE_OPTIONS may not carry --cpu-prof).
    [...serverNodeArgs(), path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', String(port)],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NEXT_DIST_DIR: dist,
        NEXT_TELEMETRY_DISABLED: '1',
        POTATOQ_CONSOLE_BROKERS: JSON.stringify(Array.isArray(broker) ? broker : [broker]),
        POTATOQ_CONSOLE_STATE: path.join(state, 'state.sqlite3'),
      },
    },
  );
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const done = async () => {
    await stop(child);
    fs.rmSync(state, { recursive: true, force: true });
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`${url}/api/health/live`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { url, pid: child.pid ?? 0, stop: done };
    await new Promise((r) => setTimeout(r, 200));
  }
  await done();
  throw new Error(`the console did not start: ${log}`);
}

/** One GET to a JSON API (potatoq's dashboard or the console), body read in full; throws unless 200. */
export async function dashboardGet(url: string, pathAndQuery: string): Promise<unknown> {
  const r = await fetch(`${url}${pathAndQuery}`);
  if (!r.ok) throw new Error(`${url}${pathAndQuery}: HTTP ${r.status} ${await r.text()}`);
  return r.json();
}

/** One GET answered with anything but a 5xx, body read in full: the floor of an HTTP round trip. */
export async function anyGet(url: string, pathAndQuery: string): Promise<number> {
  const r = await fetch(`${url}${pathAndQuery}`);
  await r.arrayBuffer();
  if (r.status >= 500) throw new Error(`${url}${pathAndQuery}: HTTP ${r.status}`);
  return r.status;
}

/** A sample that measured itself (in another process): timeAll records `selfMs`. */
export interface SelfTimed {
  selfMs: number;
}

/** A long-lived process that times one case per line it reads (a case name) and answers each
 *  with a line `@@ms <milliseconds>`; other output is ignored (an adapter may log to stdout). */
function lineTimer(child: ChildProcess, what: string): { time(name: string): Promise<SelfTimed>; stop(): Promise<void> } {
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: Array<(l: string) => void> = [];
  lines.on('line', (l) => {
    if (l.startsWith('@@ms ')) waiting.shift()?.(l.slice(5));
  });
  child.on('exit', () => {
    for (const w of waiting.splice(0)) w('');
  });
  return {
    time: (name) =>
      new Promise<SelfTimed>((resolve, reject) => {
        waiting.push((l) => {
          const ms = Number(l);
          if (l === '' || !Number.isFinite(ms)) reject(new Error(`${what}: ${l} ${err}`));
          else resolve({ selfMs: ms });
        });
        child.stdin!.write(`${name}\n`);
      }),
    stop: async () => {
      child.stdin!.end();
      await stop(child);
    },
  };
}

export type InProcess = ReturnType<typeof lineTimer> & { time(name: 'overview' | 'dead100'): Promise<SelfTimed> };

/** potatoq's Dashboard.handle() in a long-lived Python process (bench/py/dashboard_timer.py),
 *  timed there, so its samples can be interleaved with the console's. */
export function dashboardInProcess(env: NodeJS.ProcessEnv): InProcess {
  return lineTimer(spawn(PYTHON, [path.join(CWD, 'dashboard_timer.py')], { cwd: CWD, env }), 'dashboard_timer.py');
}

/** The console's adapter for `broker` (a POTATOQ_CONSOLE_BROKERS entry with id `bench`) in a
 *  process of its own (bench/console-timer.ts), timed there: the same footing as potatoq's
 *  handler above, apart from the benchmark's own HTTP clients and their garbage. */
export function consoleInProcess(broker: Record<string, unknown>): InProcess {
  const child = spawn(
    path.join(ROOT, 'node_modules/.bin/vite-node'),
    ['--config', 'vitest.config.ts', path.join(ROOT, 'bench/console-timer.ts')],
    { cwd: ROOT, env: { ...process.env, POTATOQ_CONSOLE_BROKERS: JSON.stringify([broker]) } },
  );
  return lineTimer(child, 'bench/console-timer.ts');
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** A fixed-seed shuffle (mulberry32), so a run's order of cases can be repeated. */
function shuffled<T>(xs: T[], seed: { s: number }): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    seed.s = (seed.s + 0x6d2b79f5) | 0;
    let t = Math.imul(seed.s ^ (seed.s >>> 15), 1 | seed.s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Runs every case once per round (a load spike from elsewhere hits all cases alike) after 3
 *  warm-ups each, in a new order each round (BENCH_SEED): in a fixed order a cheap case would
 *  always follow the same expensive one (its garbage, its cold caches) and pay for it every
 *  time. Returns per-case samples in ms. */
export async function timeAll(cases: Array<() => Promise<unknown>>, n: number): Promise<number[][]> {
  for (const fn of cases) for (let i = 0; i < 3; i++) await fn();
  const xs: number[][] = cases.map(() => []);
  const seed = { s: Number(process.env.BENCH_SEED ?? 1) | 0 };
  const order = cases.map((_, k) => k);
  for (let i = 0; i < n; i++) {
    for (const k of shuffled(order, seed)) {
      const t0 = performance.now();
      const r = await cases[k]!();
      const self = (r as Partial<SelfTimed> | null)?.selfMs;
      xs[k]!.push(typeof self === 'number' ? self : performance.now() - t0);
    }
  }
  return xs;
}

export const fmt = (xs: number[]) =>
  `min ${Math.min(...xs)
    .toFixed(1)
    .padStart(6)}  p50 ${pct(xs, 50).toFixed(1).padStart(6)}  p95 ${pct(xs, 95).toFixed(1).padStart(6)}`;

export const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** Times `cases` with timeAll and prints one line per case and the load; returns each case's p50. */
export async function timeAndReport(
  cases: Array<[string, () => Promise<unknown>]>,
  iterations: number,
  log: (s: string) => void,
): Promise<Map<string, number>> {
  log(`\n${iterations} rounds over all cases after 3 warm-ups each, in a new order each round (ms):`);
  const samples = await timeAll(
    cases.map(([, fn]) => fn),
    iterations,
  );
  const p50 = new Map<string, number>();
  for (const [k, [name]] of cases.entries()) {
    log(`  ${name.padEnd(58)} ${fmt(samples[k]!)}`);
    p50.set(name, pct(samples[k]!, 50));
  }
  log(`  (load average now ${load()})`);
  return p50;
}
