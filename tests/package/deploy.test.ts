// The deployment examples in docs/deploy/ stay true: the systemd unit passes
// `systemd-analyze verify` (skipped loudly where systemd-analyze is missing) and its command
// line is one the command accepts; the nginx example leaves open exactly the console's public
// probes and sets every header the console's proxy mode reads.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC_PATHS } from '@/lib/auth/gate';
import type { CliContext, ServerOptions } from '@/lib/cli/command';
import { main } from '@/lib/cli/main';

const ROOT = path.resolve(__dirname, '../..');
const unitText = fs.readFileSync(path.join(ROOT, 'docs/deploy/potatoq-console.service'), 'utf8');
const nginx = fs.readFileSync(path.join(ROOT, 'docs/deploy/nginx.conf'), 'utf8');
const execStart = /^ExecStart=(\S+) (.*)$/m.exec(unitText);

function hasSystemdAnalyze(): boolean {
  try {
    execFileSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('\n!!! systemd-analyze is not installed: SKIPPING the check of docs/deploy/potatoq-console.service !!!\n');
    return false;
  }
}

describe('docs/deploy/potatoq-console.service', () => {
  it.runIf(hasSystemdAnalyze())('passes systemd-analyze verify', () => {
    // The command is not installed here: the checkout's own bin stands in for it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unit-'));
    const file = path.join(dir, 'potatoq-console.service');
    fs.writeFileSync(file, unitText.replace(execStart![1]!, path.join(ROOT, 'bin/potatoq-console.mjs')));
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    // Unknown keys and bad values are warnings (exit 0) naming the file: none may appear.
    const about = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('potatoq-console.service'));
    expect(about, r.stderr).toEqual([]);
    expect(r.status, r.stderr).toBe(0);
  });

  it('runs a command line the command accepts, on loopback, with a clean stop', async () => {
    expect(execStart?.[1]).toBe('/usr/local/bin/potatoq-console');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unit-cfg-'));
    fs.writeFileSync(path.join(dir, 'console.json'), '{}');
    const args = execStart![2]!.split(/\s+/).map((a) => (a === '/etc/potatoq-console/console.json' ? path.join(dir, 'console.json') : a));
    const started: ServerOptions[] = [];
    const err: string[] = [];
    const ctx: CliContext = {
      version: '0',
      serverDir: dir,
      env: {},
      cwd: dir,
      out: () => undefined,
      err: (t) => void err.push(t),
      startServer: async (o) => void started.push(o),
      runDoctor: () => Promise.reject(new Error('the unit starts the server, not the doctor')),
    };
    expect(await main(args, ctx), err.join('')).toBe(0);
    expect(started).toEqual([{ host: '127.0.0.1', port: 3000 }]);
    // Next exits 143 after a SIGTERM it handled.
    expect(unitText).toMatch(/^SuccessExitStatus=143$/m);
  });
});

describe('docs/deploy/nginx.conf', () => {
  it('exempts from sign-in only the public probes, which the console answers without a session', () => {
    const open = /location ~ \^\/api\/health\/\(([a-z|]+)\)\$/.exec(nginx);
    const probes = open![1]!.split('|').map((p) => `/api/health/${p}`);
    expect(probes).toEqual(['/api/health/live', '/api/health/ready']);
    for (const p of probes) expect(PUBLIC_PATHS).toContain(p);
  });

  it('sets every header proxy mode reads, in each location that reaches the console', () => {
    const blocks = nginx.split(/\n\s*location /).filter((b) => b.includes('proxy_pass http://potatoq_console'));
    expect(blocks.length).toBe(2);
    for (const b of blocks)
      for (const h of [
        'Host',
        'X-Forwarded-For',
        'X-Forwarded-Host',
        'X-Forwarded-Proto',
        'X-Forwarded-User',
        'X-Forwarded-Groups',
        'X-Potatoq-Proxy-Secret',
      ])
        expect(b).toMatch(new RegExp(`proxy_set_header ${h} `));
  });
});
