// The npm package as a user gets it: packed (`npm pack` runs scripts/pack-build.mjs), installed
// into an empty prefix, its command started and timed to the first 200 on /api/health. Used by
// tests/package/pack.int.test.ts and bench/package.ts (the numbers in docs/install.md).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = path.resolve(__dirname, '../..');

/** Packs the checkout into `dir` (a full standalone build unless POTATOQ_PACK_REUSE_BUILD=1); returns the tarball. */
export async function packTarball(dir: string, timeoutMs: number): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--json'], {
    cwd: ROOT,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  // npm prints the build's output before its JSON: the JSON is the last top-level array.
  const parsed = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1)) as { filename: string }[];
  return path.join(dir, parsed[0]!.filename);
}

/**
 * A local prebuild of better-sqlite3 for this Node, made from the checkout's own build, for
 * prebuild-install to find instead of compiling SQLite (~3 min on 2 cores). Only when the
 * registry resolves the same version as the checkout; otherwise the install compiles, as it
 * does for a user without a prebuilt binary. Returns the env that points prebuild-install at it.
 */
export async function localPrebuildEnv(dir: string): Promise<Record<string, string>> {
  const pkg = path.join(ROOT, 'node_modules/better-sqlite3');
  const binary = path.join(pkg, 'build/Release/better_sqlite3.node');
  if (!fs.existsSync(binary)) return {};
  const { version } = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string };
  const libc =
    process.platform === 'linux' &&
    !(process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime
      ? 'musl'
      : '';
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${libc}-${process.arch}.tar.gz`;
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'prebuild-'));
  fs.mkdirSync(path.join(stage, 'build/Release'), { recursive: true });
  fs.copyFileSync(binary, path.join(stage, 'build/Release/better_sqlite3.node'));
  fs.mkdirSync(dir, { recursive: true });
  await run('tar', ['czf', path.join(dir, name), '-C', stage, 'build']);
  fs.rmSync(stage, { recursive: true, force: true });
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

/** `npm install -g --prefix <prefix> <tarball>`; returns the installed command. */
export async function installTarball(tarball: string, prefix: string, env: Record<string, string>, timeoutMs: number): Promise<string> {
  await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], {
    cwd: path.dirname(tarball),
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return path.join(prefix, 'bin', 'potatoq-console');
}

/** Bytes under a folder (files as stored, not blocks). */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** The environment a fresh user has: none of the console's variables. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { NODE_ENV: 'production', PATH: process.env.PATH, HOME: process.env.HOME ?? os.tmpdir(), NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

export interface Started {
  child: ChildProcess;
  /** Milliseconds from spawning the command to its first 200 on `url`. */
  ms: number;
  output: () => string;
}

/** Spawns the command and polls `path` every 25 ms until it answers 200, or fails after `timeoutMs` with the output. */
export async function startAndWait(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; url: string; timeoutMs: number },
): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  const output = () => log;
  while (performance.now() - t0 < opts.timeoutMs) {
    if (child.exitCode !== null) throw new Error(`potatoq-console exited ${child.exitCode} before answering:\n${log}`);
    const ok = await fetch(opts.url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { child, ms: performance.now() - t0, output };
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGKILL');
  throw new Error(`potatoq-console did not answer ${opts.url} within ${opts.timeoutMs} ms:\n${log}`);
}

/** SIGTERM, then the exit code (SIGKILL after `graceMs`). */
export function stop(child: ChildProcess, graceMs = 10_000): Promise<number | string | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', (code, signal) => {
      clearTimeout(kill);
      resolve(code ?? signal);
    });
    child.kill('SIGTERM');
  });
}
