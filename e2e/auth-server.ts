import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createHash, scryptSync, randomBytes } from 'node:crypto';
import { seedDemoDatabase } from '../lib/demo/seed';
import { freePort, portHolder } from '../tests/support/free-port';

// Consoles started by the auth specs themselves, each with its own authentication settings,
// on a free port each (the shared e2e servers run in mode none). Each gets a fresh
// seeded SQLite broker and state store in a temp dir.

export const DIST_DIR = process.env.NEXT_DIST_DIR || '.next';

/** Values the secret scan looks for: none may reach a response or the client bundle. */
export const SECRETS = {
  brokerPassword: 'Pg-Secret-Pass-9f3e1',
  sessionSecret: 'e2e-session-secret-0c2b5c8f6a4d4e0e9a1b',
  operatorToken: 'pqc_e2e-operator-token-5b7f3c2e1d',
  proxySecret: 'e2e-proxy-secret-77aa19',
  operatorPassword: 'operator-pw-e2e-1',
  viewerPassword: 'viewer-pw-e2e-1',
};
export const SECRET_BROKER_URL = `postgresql://console_user:${SECRETS.brokerPassword}@127.0.0.1:9/potatoq`;

export function scryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export const tokenHash = (t: string) => `sha256:${createHash('sha256').update(t).digest('hex')}`;

export interface RunningConsole {
  url: string;
  port: number;
  pid: number;
  dir: string;
  broker: string;
  stop: () => Promise<void>;
  exited: Promise<number | null>;
  output: () => string;
}

export async function startConsole(
  env: Record<string, string>,
  opts: { host?: string; expectExit?: boolean; port?: number } = {},
): Promise<RunningConsole> {
  // `port`: for a console whose own address must be known first (the oidc redirect URL).
  const port = opts.port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-auth-e2e-'));
  const broker = path.join(dir, 'main.sqlite3');
  const db = new Database(broker);
  try {
    seedDemoDatabase(db);
  } finally {
    db.close();
  }
  const brokers = JSON.stringify([
    { id: 'main', name: 'Main (SQLite)', url: `sqlite:///${broker}` },
    { id: 'secretpg', name: 'Secret PG', url: SECRET_BROKER_URL, readOnly: true },
  ]);
  let out = '';
  const child: ChildProcess = spawn(
    'node',
    ['node_modules/next/dist/bin/next', 'start', '-H', opts.host ?? '127.0.0.1', '-p', String(port), '--keepAliveTimeout', '65000'],
    {
      env: {
        ...process.env,
        NEXT_DIST_DIR: DIST_DIR,
        NEXT_TELEMETRY_DISABLED: '1',
        POTATOQ_CONSOLE_BROKERS: brokers,
        POTATOQ_CONSOLE_STATE: path.join(dir, 'state.sqlite3'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    // Next waits for open keep-alive connections on SIGTERM; don't let a browser hold it.
    const timer = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  if (!opts.expectExit) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) {
        const held = /EADDRINUSE/.test(out) ? ` (port ${port} is held by ${portHolder(port)})` : '';
        throw new Error(`console on ${port} exited${held}: ${out}`);
      }
      try {
        const r = await fetch(`${url}/login`, { redirect: 'manual' });
        if (r.status < 500) break;
      } catch {}
      if (Date.now() > deadline) throw new Error(`console on ${port} did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { url, port, pid: child.pid ?? 0, dir, broker, stop, exited, output: () => out };
}
