import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/support/free-port';
import { PROMETHEUS } from '../tests/support/prometheus';

// A real Prometheus (Debian's binary, never its service) for the metrics spec: a temp config
// and data dir, a free loopback port, scraping one target every second with a bearer token.

export interface RunningPrometheus {
  url: string;
  /** `GET /api/v1/<path>`'s `data` (throws on an error status). */
  api: <T>(pathAndQuery: string) => Promise<T>;
  stop: () => Promise<void>;
  output: () => string;
}

export async function startPrometheus(opts: { target: string; token: string; rules?: string }): Promise<RunningPrometheus> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-prometheus-'));
  const tokenFile = path.join(dir, 'token');
  fs.writeFileSync(tokenFile, opts.token, { mode: 0o600 });
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    ...(opts.rules ? ['rule_files:', `  - ${JSON.stringify(opts.rules)}`] : []),
    'scrape_configs:',
    '  - job_name: potatoq-console',
    '    metrics_path: /metrics',
    '    authorization:',
    '      type: Bearer',
    `      credentials_file: ${JSON.stringify(tokenFile)}`,
    '    static_configs:',
    `      - targets: [${JSON.stringify(opts.target)}]`,
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), `${config}\n`);
  let out = '';
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${out}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus did not become ready: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const api = async <T>(p: string): Promise<T> => {
    const r = await fetch(`${url}/api/v1/${p}`);
    const body = (await r.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${p}: ${body.error ?? r.status}`);
    return body.data;
  };
  return { url, api, stop, output: () => out };
}
