// The npm package end to end: `npm pack` (the standalone build, scripts/pack-build.mjs), then
// `npm install -g` of the tarball into an empty prefix (its one dependency, better-sqlite3,
// from the registry the machine reaches; the checkout's own binary offered as a local prebuild
// so SQLite is not compiled again), then the installed `potatoq-console demo` on a free port:
// a page and /api/health answer, and SIGTERM stops it; the installed `potatoq-console doctor`
// finds a migrated SQLite broker usable (exit 0) and a missing file and closed ports unusable
// (exit 1), through the drivers the package carries, printing no password. Cost: one `next build` (~2-3 min on 2
// cores) plus the install (~15 s; ~3 min more when SQLite has to be compiled).
// int-lane: isolated (its Redis and RabbitMQ brokers are closed ports, never reached)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { migratedDb } from '../support/sqlite-db';
import { ROOT, cleanEnv, folderBytes, installTarball, localPrebuildEnv, packTarball, startAndWait, stop } from '../support/package';

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-pack-'));
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let tarball = '';
let bin = '';

beforeAll(async () => {
  const t0 = performance.now();
  tarball = await packTarball(work, 10 * 60_000);
  const t1 = performance.now();
  bin = await installTarball(tarball, path.join(work, 'prefix'), await localPrebuildEnv(path.join(work, 'prebuilds')), 10 * 60_000);
  console.log(`pack ${((t1 - t0) / 1000).toFixed(0)} s, install ${((performance.now() - t1) / 1000).toFixed(0)} s`);
}, 20 * 60_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the npm package', () => {
  it('holds the command and the prebuilt server, no native binary and one dependency', async () => {
    const { stdout } = await run('tar', ['tzf', tarball], { maxBuffer: 64 * 1024 * 1024 });
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/bin/potatoq-console.mjs');
    expect(files).toContain('package/dist/cli.mjs');
    expect(files).toContain('package/dist/server/next-config.json');
    expect(files).toContain('package/dist/server/doctor.cjs');
    expect(files.some((f) => f.startsWith('package/dist/server/node_modules/next/'))).toBe(true);
    expect(files.some((f) => f.startsWith('package/dist/server/.next-pack/static/'))).toBe(true);
    // Built for one platform: those come from the install instead (or are not needed).
    expect(files.filter((f) => f.endsWith('.node') || /\/node_modules\/(better-sqlite3|sharp|@img)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /^package\/(lib|app|tests|e2e|\.next)\//.test(f))).toEqual([]);
    const installed = path.join(work, 'prefix/lib/node_modules/potatoq-console');
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest.dependencies as object)).toEqual(['better-sqlite3']);
    expect(manifest.private).toBeUndefined();
    expect(fs.statSync(tarball).size).toBeLessThan(20 * 1024 * 1024);
    console.log(`tarball ${(fs.statSync(tarball).size / 1e6).toFixed(1)} MB, installed ${(folderBytes(installed) / 1e6).toFixed(0)} MB`);
  });

  it('answers --version and refuses a wrong command line with exit 2', async () => {
    const { stdout } = await run(bin, ['--version'], { env: cleanEnv() });
    expect(stdout.trim()).toBe(version);
    const bad = await run(bin, ['serve', '--prot', '1'], { env: cleanEnv() }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown option --prot');
  });

  it('serves the demo broker from the installed command, then stops on SIGTERM', async () => {
    const cwd = fs.mkdtempSync(path.join(work, 'cwd-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const started = await startAndWait(bin, ['demo', '--port', String(port)], {
      cwd,
      env: cleanEnv(),
      url: `${base}/api/health`,
      timeoutMs: 90_000,
    });
    try {
      console.log(`first 200 on /api/health after ${started.ms.toFixed(0)} ms`);
      const health = (await (await fetch(`${base}/api/health`)).json()) as { status: string; brokers: { id: string; ok: boolean }[] };
      expect(health).toMatchObject({ status: 'ok', brokers: [{ id: 'demo', ok: true }] });
      const page = await fetch(`${base}/brokers/demo/dead`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Demo');
      // The page's own script and style files come from the package too.
      const asset = /\/_next\/static\/[^"]+\.js/.exec(html)?.[0];
      expect(asset).toBeDefined();
      // Bodies read to the end: a response still being written holds the server's close open.
      const script = await fetch(`${base}${asset}`);
      expect(script.status).toBe(200);
      expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(0);
      const live = await fetch(`${base}/api/health/live`);
      expect(await live.json()).toEqual({ status: 'live' });
      const ready = await fetch(`${base}/api/health/ready`);
      expect(await ready.json()).toEqual({ status: 'ready' });
      // Relative files stay where the command was started, not inside the package.
      expect(fs.existsSync(path.join(cwd, '.data/demo.sqlite3'))).toBe(true);
      expect(fs.existsSync(path.join(cwd, '.data/console-state.sqlite3'))).toBe(true);
    } finally {
      const code = await stop(started.child);
      expect(code, started.output()).toBe(143);
    }
    await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();
  });

  it('runs the doctor from the installed command: usable is exit 0, unusable exit 1, no password printed', async () => {
    const cwd = fs.mkdtempSync(path.join(work, 'doctor-'));
    const db = migratedDb();
    const config = (name: string, brokers: object[]) => {
      const file = path.join(cwd, name);
      fs.writeFileSync(file, `state: ${path.join(cwd, 'state.sqlite3')}\nbrokers: ${JSON.stringify(brokers)}\n`);
      return file;
    };
    const doctor = (args: string[]) =>
      run(bin, ['doctor', ...args], { cwd, env: cleanEnv(), timeout: 60_000 }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );

    const good = await doctor(['--config', config('good.yaml', [{ id: 'jobs', url: `sqlite:///${db}` }])]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^jobs \(potatoq · SQLite\): usable$/m);
    expect(good.stdout).toMatch(/^ {2}version {4}SQLite \d+\.\d+/m);
    expect(good.stdout).toMatch(/1 broker\(s\): 1 usable, 0 degraded, 0 unusable\n$/);

    // The network drivers come from dist/server/node_modules: ports nobody listens on.
    const password = 'Pw-Doctor-NotForLogs';
    const missing = path.join(cwd, 'missing.sqlite3');
    const bad = await doctor([
      '--json',
      `--config=${config('bad.yaml', [
        { id: 'jobs', url: `sqlite:///${db}` },
        { id: 'gone', url: `sqlite:///${missing}` },
        { id: 'redis', url: `redis://:${password}@127.0.0.1:${await freePort()}/0` },
        { id: 'pg', url: `postgresql://console:${password}@127.0.0.1:${await freePort()}/jobs` },
        { id: 'rabbit', url: `amqp://console:${password}@127.0.0.1:${await freePort()}/` },
      ])}`,
    ]);
    expect(bad.code, bad.stderr).toBe(1);
    const { brokers } = JSON.parse(bad.stdout) as { brokers: Array<{ id: string; verdict: string; why: string[] }> };
    expect(brokers.map((b) => [b.id, b.verdict])).toEqual([
      ['jobs', 'usable'],
      ['gone', 'unusable'],
      ['redis', 'unusable'],
      ['pg', 'unusable'],
      ['rabbit', 'unusable'],
    ]);
    expect(brokers[1]!.why.join(' ')).toContain('not found');
    expect(fs.existsSync(missing)).toBe(false);
    expect(`${bad.stdout}${bad.stderr}${good.stdout}${good.stderr}`).not.toContain(password);

    const wrong = await doctor(['--config', path.join(cwd, 'nope.yaml')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--config: no such file');
  }, 120_000);
});
