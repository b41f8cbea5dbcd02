// Test helper (not shipped code): builds tests/sdj (the Go harness over the real Simple Durable
// Jobs v4.5.1) once per test file into a temp dir and runs its subcommands.
//
// Where the library comes from: the Go module proxy when it serves v4.5.1, else the source named
// by POTATOQ_TEST_SDJ_SOURCE (a git dir of jdziat/simple-durable-jobs, from which tag v4.5.1 is
// exported and its commit checked, or an already exported v4.5.1 tree). Either way the build runs
// through a go.work in the temp dir, so the checkout's go.mod/go.sum are never rewritten and no
// binary lands in the checkout.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SDJ_MODULE = 'github.com/jdziat/simple-durable-jobs/v4';
export const SDJ_VERSION = 'v4.5.1';
/** The commit tag v4.5.1 points at (checked when the source comes from a git dir). */
export const SDJ_COMMIT = '205e2bcf0bc465eb79ac3af3ca7e90100984ce44';

const HARNESS_DIR = path.resolve(__dirname);
const required = process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1';
// The library is not a service: CI cannot fetch it when the proxy refuses it, so a missing
// library fails only when this is set (the loud skip otherwise).
const requireLibrary = process.env.POTATOQ_CONSOLE_REQUIRE_SDJ === '1';

type Source = { kind: 'proxy' } | { kind: 'git'; gitDir: string } | { kind: 'tree'; dir: string };
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
    const r = spawnSync('go', ['mod', 'download', '-json', `${SDJ_MODULE}@${SDJ_VERSION}`], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    const error = /"Error":\s*"([^"]*)"/.exec(r.stdout)?.[1] ?? (r.status === 0 ? '' : r.stderr.trim());
    return { ok: r.status === 0 && !error, error: error.replace(/\\n\\t/g, ' ') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function sourceFromEnv(value: string): Source | string {
  if (fs.existsSync(path.join(value, 'go.mod'))) {
    const mod = fs.readFileSync(path.join(value, 'go.mod'), 'utf8');
    return mod.startsWith(`module ${SDJ_MODULE}\n`) ? { kind: 'tree', dir: value } : `${value}/go.mod is not module ${SDJ_MODULE}`;
  }
  const r = spawnSync('git', ['--git-dir', value, 'rev-parse', `${SDJ_VERSION}^{commit}`], { encoding: 'utf8' });
  if (r.status !== 0) return `${value} is neither a source tree nor a git dir with tag ${SDJ_VERSION}`;
  if (r.stdout.trim() !== SDJ_COMMIT) return `tag ${SDJ_VERSION} in ${value} is ${r.stdout.trim()}, not ${SDJ_COMMIT}`;
  return { kind: 'git', gitDir: value };
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
  const env = process.env.POTATOQ_TEST_SDJ_SOURCE;
  if (env) {
    const s = sourceFromEnv(env);
    return typeof s === 'string' ? skip(`POTATOQ_TEST_SDJ_SOURCE: ${s}`, true) : { ok: true, source: s };
  }
  const probe = proxyServes();
  if (probe.ok) return { ok: true, source: { kind: 'proxy' } };
  return skip(`the Go module proxy does not serve ${SDJ_MODULE}@${SDJ_VERSION} (${probe.error}); set POTATOQ_TEST_SDJ_SOURCE to its git dir or v4.5.1 source tree`, requireLibrary);
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
export function buildHarness(source: Source): Harness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdj-harness-'));
  let work = `go 1.25.5\n\nuse ${HARNESS_DIR}\n`;
  if (source.kind !== 'proxy') {
    let tree = source.kind === 'tree' ? source.dir : path.join(dir, 'src');
    if (source.kind === 'git') {
      fs.mkdirSync(tree);
      const tar = execFileSync('git', ['--git-dir', source.gitDir, 'archive', SDJ_COMMIT], { maxBuffer: 256 * 1024 * 1024 });
      execFileSync('tar', ['-x', '-C', tree], { input: tar });
    }
    tree = path.resolve(tree);
    work += `\nreplace ${SDJ_MODULE} ${SDJ_VERSION} => ${tree}\n`;
  }
  fs.writeFileSync(path.join(dir, 'go.work'), work);
  const env = { ...process.env, GOWORK: path.join(dir, 'go.work') };
  const go = (args: string[]) => execFileSync('go', ['-C', HARNESS_DIR, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: BUILD_TIMEOUT_MS });
  const bin = path.join(dir, 'sdj-harness');
  const started = Date.now();
  // go.sum has no line for the library (it was resolved from source); from the proxy, its
  // checksum goes to the temp go.work.sum.
  if (source.kind === 'proxy') go(['mod', 'download', `${SDJ_MODULE}@${SDJ_VERSION}`]);
  // -trimpath: the exported source lands in a new temp dir each time; without it no build would be warm.
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
export async function runWorker(h: Harness, url: string, queues: string[], maxJobs: number, seconds = 40, maxWaiting = 0): Promise<{ summary: WorkerSummary; runs: Invocation[] }> {
  const out = path.join(h.dir, `runs-${queues.join('-')}-${Date.now()}.jsonl`);
  const args = ['worker', '--url', url, '--queues', queues.join(','), '--out', out, '--max-jobs', String(maxJobs), '--max-waiting', String(maxWaiting), '--duration', `${seconds}s`];
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
