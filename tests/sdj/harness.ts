// Test helper (not shipped code): builds tests/sdj (the Go harness over the real Simple Durable
// Jobs v4.5.1) once per test file into a temp dir and runs its subcommands.
//
// The library comes from the Go module proxy only. On this project's machines the proxy refuses
// v4.5.1 ("403 This module version is not available"), so the suites skip with that reason; the
// project builds no copy of the library's source itself. The build runs through a go.work in a
// temp dir, so the checkout's go.mod/go.sum are never rewritten and no binary lands in it.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SDJ_MODULE = 'github.com/jdziat/simple-durable-jobs/v4';
export const SDJ_VERSION = 'v4.5.1';

const HARNESS_DIR = path.resolve(__dirname);
const required = process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1';
// The library is not a service: when the proxy refuses it, nothing a run can start brings it, so a
// missing library fails only when this is set (the loud skip otherwise).
const requireLibrary = process.env.POTATOQ_CONSOLE_REQUIRE_SDJ === '1';

type Source = { kind: 'proxy' };
export type Availability = { ok: true; source: Source } | { ok: false; reason: string };

function goVersion(): string | null {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Whether the proxy serves SDJ v4.5.1 (asked once, from a scratch module). */
function proxyServes(): { ok: boolean; error: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdj-probe-'));
  try {
    fs.writeFileSync(path.join(dir, 'go.mod'), 'module probe\n\ngo 1.25.5\n');
    const r = spawnSync('go', ['mod', 'download', '-json', `${SDJ_MODULE}@${SDJ_VERSION}`], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const error = /"Error":\s*"([^"]*)"/.exec(r.stdout)?.[1] ?? (r.status === 0 ? '' : r.stderr.trim());
    return { ok: r.status === 0 && !error, error: error.replace(/\\n\\t/g, ' ') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Decided once at collection: the loud skip line, or a failure where CI requires the suite. */
export function sdjAvailability(): Availability {
  const skip = (reason: string, mustFail: boolean): Availability => {
    const line = `\n!!! Simple Durable Jobs harness: ${reason}: SKIPPING the SDJ suites !!!\n`;
    if (mustFail) throw new Error(line);
    console.warn(line);
    return { ok: false, reason };
  };
  if (!goVersion()) return skip('`go` is not on PATH', required || requireLibrary);
  const probe = proxyServes();
  if (probe.ok) return { ok: true, source: { kind: 'proxy' } };
  return skip(`the Go module proxy does not serve ${SDJ_MODULE}@${SDJ_VERSION} (${probe.error})`, requireLibrary);
}

/** A cold build compiles gorm, pgx and the library: ~1 min on 2 idle cores, over 2 min on busy ones. */
export const BUILD_TIMEOUT_MS = 540_000;

export interface Harness {
  bin: string;
  dir: string;
  /** Wall-clock seconds of the build (cold: ~1 min on 2 cores; warm: under a second). */
  buildSeconds: number;
}

/** go build of tests/sdj into a temp dir, through a go.work there. */
export function buildHarness(_source: Source): Harness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdj-harness-'));
  const work = `go 1.25.5\n\nuse ${HARNESS_DIR}\n`;
  fs.writeFileSync(path.join(dir, 'go.work'), work);
  const env = { ...process.env, GOWORK: path.join(dir, 'go.work') };
  const go = (args: string[]) =>
    execFileSync('go', ['-C', HARNESS_DIR, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: BUILD_TIMEOUT_MS });
  const bin = path.join(dir, 'sdj-harness');
  const started = Date.now();
  // go.sum has no line for the library (the proxy never served it here): its checksum goes to
  // the temp go.work.sum.
  go(['mod', 'download', `${SDJ_MODULE}@${SDJ_VERSION}`]);
  go(['build', '-trimpath', '-o', bin, '.']);
  return { bin, dir, buildSeconds: (Date.now() - started) / 1000 };
}

export function removeHarness(h: Harness | undefined): void {
  if (h) fs.rmSync(h.dir, { recursive: true, force: true });
}

export interface RunResult<T> {
  status: number;
  json: T;
  stderr: string;
}

/** One subcommand; stdout is its JSON answer. */
export function runHarness<T = Record<string, unknown>>(h: Harness, args: string[], timeoutMs = 60_000): RunResult<T> {
  const r = spawnSync(h.bin, args, { encoding: 'utf8', timeout: timeoutMs });
  if (r.error) throw r.error;
  let json: T;
  try {
    json = JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`sdj-harness ${args[0]} exited ${r.status} without JSON: ${r.stdout}\n${r.stderr}`);
  }
  return { status: r.status ?? -1, json, stderr: r.stderr };
}

/** Like runHarness, but any non-zero exit is an error. */
export function harness<T = Record<string, unknown>>(h: Harness, args: string[], timeoutMs?: number): T {
  const r = runHarness<T>(h, args, timeoutMs);
  if (r.status !== 0) throw new Error(`sdj-harness ${args.join(' ')} exited ${r.status}: ${JSON.stringify(r.json)}\n${r.stderr}`);
  return r.json;
}

export interface Invocation {
  handler: 'record' | 'fail-permanent' | 'always-error' | 'fan-out';
  id: string;
  queue: string;
  attempt: number;
  args: unknown;
}

export interface WorkerSummary {
  completed: number;
  failed: number;
  waiting: number;
  seconds: number;
}

/**
 * Runs the real worker on `queues` until `maxJobs` jobs finished (completed or terminally
 * failed), or `maxWaiting` jobs suspended as waiting, or `seconds` passed.
 */
export async function runWorker(
  h: Harness,
  url: string,
  queues: string[],
  maxJobs: number,
  seconds = 40,
  maxWaiting = 0,
): Promise<{ summary: WorkerSummary; runs: Invocation[] }> {
  const out = path.join(h.dir, `runs-${queues.join('-')}-${Date.now()}.jsonl`);
  const args = [
    'worker',
    '--url',
    url,
    '--queues',
    queues.join(','),
    '--out',
    out,
    '--max-jobs',
    String(maxJobs),
    '--max-waiting',
    String(maxWaiting),
    '--duration',
    `${seconds}s`,
  ];
  const child = spawn(h.bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`sdj-harness worker exited ${code}: ${stdout}\n${stderr}`);
  const runs = fs.existsSync(out)
    ? fs
        .readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Invocation)
    : [];
  return { summary: JSON.parse(stdout) as WorkerSummary, runs };
}
