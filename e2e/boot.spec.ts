import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../tests/support/free-port';
import { redisServerHere } from './services';

// A bad POTATOQ_CONSOLE_BROKERS stops `next start` before it serves anything, naming the field.
test('a bad broker configuration stops the server with exit code 1 and names the field', async () => {
  const port = await freePort();
  const root = path.join(__dirname, '..');
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    env: { ...process.env, POTATOQ_CONSOLE_BROKERS: '[{"id":"ok","url":"sqlite:///a.db"},{"id":"bad","url":"mysql://db/app"}]' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  expect(code).toBe(1);
  expect(stderr).toContain('potatoq console: bad configuration: POTATOQ_CONSOLE_BROKERS[1].url: scheme must be one of');
});

// A Redis Cluster node is refused at boot, by name and with the reason, without stopping the
// server: the other brokers are served (a private redis-server in cluster mode on a free port).
test('a Redis Cluster broker is named at boot as refused, with the reason, and the server keeps serving', async () => {
  test.skip(!redisServerHere(), 'redis-server is not installed');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const redisPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-cluster-'));
  const redis = spawn(
    'redis-server',
    [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `${dir}/nodes.conf`,
    ],
    { stdio: 'ignore' },
  );
  const port = await freePort();
  const root = path.join(__dirname, '..');
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    env: {
      ...process.env,
      POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'cl', url: `redis://127.0.0.1:${redisPort}/0` }]),
      POTATOQ_CONSOLE_STATE: `${dir}/state.sqlite3`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    await expect
      .poll(() => stderr, { timeout: 45_000 })
      .toContain(
        'potatoq console: broker "cl" is refused (Unsupported): this is a Redis Cluster node: potatoq 26.1a8 does not support Redis Cluster',
      );
    expect(child.exitCode).toBeNull();
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await health.text()).toContain('Redis Cluster');
  } finally {
    child.kill('SIGTERM');
    redis.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
