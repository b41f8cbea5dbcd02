import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../tests/support/free-port';

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
