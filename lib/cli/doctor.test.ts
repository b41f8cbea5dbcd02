import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext, Env } from './command';
import { runPackagedDoctor } from './doctor';
import { main } from './main';

// `potatoq-console doctor`: its command line and exit codes. The doctor itself (dist/server/
// doctor.cjs) is replaced by a recorder here; tests/package/pack.int.test.ts runs the real one
// from the installed package against SQLite brokers.
function context(answer: number | Error = 0, env: Env = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const runs: Array<{ json: boolean; config: string | undefined }> = [];
  const ctx: CliContext = {
    version: '1.2.3',
    serverDir: '/nowhere',
    env,
    cwd: os.tmpdir(),
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    startServer: () => Promise.reject(new Error('the doctor starts no server')),
    runDoctor: async ({ json }) => {
      runs.push({ json, config: env.POTATOQ_CONSOLE_CONFIG });
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { ctx, out, err, runs, env };
}

describe('potatoq-console doctor', () => {
  it('is listed, and its help shows --config FILE, the --json switch and the exit codes', async () => {
    const h = context();
    expect(await main(['--help'], h.ctx)).toBe(0);
    expect(h.out.join('')).toMatch(/^ {2}doctor {2}check every configured broker/m);
    const d = context();
    expect(await main(['doctor', '--help'], d.ctx)).toBe(0);
    const help = d.out.join('');
    expect(help).toContain('Usage: potatoq-console doctor [options]');
    expect(help).toMatch(/^ {2}--config FILE {2}configuration file/m);
    expect(help).toMatch(/^ {2}--json {9}print \{"brokers": \[\.\.\.\]\} as JSON/m);
    expect(help).toContain('Exit 0 when no broker is unusable, 1 when one is, 2 when the configuration is bad.');
    expect(d.runs).toEqual([]);
  });

  it.each([0, 1, 2])('exits with the doctor’s own code %i', async (code) => {
    const c = context(code);
    expect(await main(['doctor'], c.ctx)).toBe(code);
    expect(c.runs).toEqual([{ json: false, config: undefined }]);
  });

  it('--config sets POTATOQ_CONSOLE_CONFIG (absolute, from the current directory); --json asks for JSON', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-doctor-'));
    fs.writeFileSync(path.join(dir, 'console.yaml'), 'brokers: []\n');
    const c = context(1);
    c.ctx.cwd = dir;
    expect(await main(['doctor', '--json', '--config', 'console.yaml'], c.ctx)).toBe(1);
    expect(c.runs).toEqual([{ json: true, config: path.join(dir, 'console.yaml') }]);
    const eq = context(0, { POTATOQ_CONSOLE_CONFIG: '/etc/old.yaml' });
    eq.ctx.cwd = dir;
    expect(await main(['doctor', '--config=console.yaml'], eq.ctx)).toBe(0);
    expect(eq.runs).toEqual([{ json: false, config: path.join(dir, 'console.yaml') }]);
  });

  it('without --config keeps the configuration the environment names', async () => {
    const c = context(0, { POTATOQ_CONSOLE_CONFIG: '/etc/potatoq-console/console.yaml' });
    expect(await main(['doctor', '--json'], c.ctx)).toBe(0);
    expect(c.runs).toEqual([{ json: true, config: '/etc/potatoq-console/console.yaml' }]);
  });

  it.each([
    [['doctor', '--json=yes'], /doctor: --json takes no value/],
    [['doctor', '--json', '--json'], /doctor: --json given twice/],
    [['doctor', '--config'], /doctor: --config needs a value \(FILE\)/],
    [['doctor', '--config', '--json'], /doctor: --config needs a value \(FILE\)/],
    [['doctor', '--config', '/no/such/console.yaml'], /doctor: --config: no such file "\/no\/such\/console.yaml"/],
    [['doctor', '--port', '80'], /doctor: unknown option --port \(known: --config, --json\)/],
    [['doctor', 'brokers'], /doctor: unexpected argument "brokers"/],
  ])('refuses %j with exit 2 and runs nothing', async (argv, message) => {
    const c = context();
    expect(await main(argv, c.ctx)).toBe(2);
    expect(c.err.join('')).toMatch(message);
    expect(c.runs).toEqual([]);
  });

  it('a doctor that cannot run exits 1 with its message', async () => {
    const c = context(new Error('no prebuilt doctor at /x/doctor.cjs'));
    expect(await main(['doctor'], c.ctx)).toBe(1);
    expect(c.err.join('')).toBe('potatoq-console: no prebuilt doctor at /x/doctor.cjs\n');
  });

  it('names the missing prebuilt doctor of a checkout that was not packed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-doctor-'));
    await expect(runPackagedDoctor(dir, false)).rejects.toThrow(
      `no prebuilt doctor at ${path.join(dir, 'doctor.cjs')} (a checkout builds it with "npm run pack:build", or runs "npm run doctor")`,
    );
  });
});
