import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Redis } from 'ioredis';
import { guardPage } from './helpers';
import { startConsole } from './auth-server';

// Issue 12 item 2 on Celery: a real Celery 5.7 worker killed with SIGKILL while it holds an
// acks_late task, and a queue nobody consumes, on Redis db 3 (flushed before and after). The
// overview and the task page show each flag with its cause, what the console can and cannot do.

const ROOT = path.resolve(__dirname, '..');
const CELERY = path.join(ROOT, '.venv/bin/celery');
const PYTHON = path.join(ROOT, '.venv/bin/python');
const PY = path.join(ROOT, 'tests/py');
const BASE = (process.env.POTATOQ_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0').replace(/\/\d*$/, '');
const URL3 = `${BASE}/3`;

async function until(what: string, fn: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('stuck work on Celery: a SIGKILLed worker’s reserved task and a queue nobody consumes, with their causes', async ({ page }) => {
  test.setTimeout(150_000);
  const redis = new Redis(URL3);
  await redis.flushdb();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'stk-celery-e2e-'));
  const tag = Math.random().toString(36).slice(2, 8);
  const work = `stk-e2e-work-${tag}`;
  const idleQ = `stk-e2e-idle-${tag}`;
  const env = { ...process.env, CT_BROKER: URL3, CT_BACKEND: URL3, CT_OUT: out, PYTHONUNBUFFERED: '1' };
  const send = (task: string, queue: string, args: unknown[]) => {
    const code = `import rt_celery_app as a; print(a.app.send_task(${JSON.stringify(task)}, args=${JSON.stringify(args)}, queue=${JSON.stringify(queue)}).id)`;
    return new Promise<string>((resolve, reject) => {
      const p = spawn(PYTHON, ['-c', code], { cwd: PY, env });
      let s = '';
      p.stdout.on('data', (d: Buffer) => (s += d.toString()));
      p.on('exit', (c) => (c === 0 ? resolve(s.trim()) : reject(new Error(`send_task exited ${c}`))));
    });
  };
  const held = await send('ct.hold', work, [300]);
  const worker = spawn(
    CELERY,
    [
      '-A',
      'rt_celery_app',
      'worker',
      '-P',
      'threads',
      '-c',
      '1',
      '-Q',
      work,
      '-n',
      `stk-e2e-${tag}@%h`,
      '--without-mingle',
      '--without-gossip',
    ],
    {
      cwd: PY,
      env,
      stdio: 'ignore',
    },
  );
  try {
    await until('the worker to start the task', () => fs.existsSync(path.join(out, `${held}.started`)));
  } finally {
    worker.kill('SIGKILL');
  }
  const idle = await send('ct.record', idleQ, [1]);
  const c = await startConsole({
    POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'stk', kind: 'celery', name: 'Stuck Celery', url: URL3, resultBackend: URL3 }]),
  });
  try {
    const { pageErrors } = guardPage(page);
    await page.goto(`${c.url}/`);
    const panel = page.locator('[data-broker="stk"] [data-testid="stuck-panel"]');
    await expect(panel).toHaveAttribute('data-state', 'stuck');
    const lost = panel.locator(`[data-testid="stuck-flag"][data-check="worker-lost"][data-queue="${work}"]`);
    await expect(lost.getByTestId('stuck-cause')).toContainText('1 message of queue');
    await expect(lost.getByTestId('stuck-cause')).toContainText('no live worker reports it as active, reserved or scheduled');
    await expect(lost.getByTestId('stuck-cannot')).toContainText('never changes running or reserved messages');
    await expect(panel.locator(`[data-check="no-consumer"][data-queue="${idleQ}"] [data-testid="stuck-cause"]`)).toContainText(
      'no live worker consumes it',
    );
    await page.screenshot({ path: test.info().outputPath('stuck-celery-overview.png'), fullPage: true });

    // The flag links to the reserved task; its page says why it is stuck and offers no action on it.
    await lost.getByTestId('stuck-link').click();
    await expect(page).toHaveURL(new RegExp(`/brokers/stk/jobs/${held}$`));
    await expect(page.getByTestId('task-stuck')).toContainText('visibility timeout (3600 s)');
    await expect(page.getByTestId('action-revoke')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('stuck-celery-task.png'), fullPage: true });
    await page.goto(`${c.url}/brokers/stk/jobs/${idle}`);
    await expect(page.getByTestId('task-stuck')).toContainText('no live worker consumes it');

    // In the broker: nothing was changed by looking.
    expect(Object.values(await redis.hgetall('unacked')).some((v) => v.includes(held))).toBe(true);
    expect(await redis.llen(idleQ)).toBe(1);
    expect(pageErrors).toEqual([]);
  } finally {
    await c.stop();
    await redis.flushdb();
    redis.disconnect();
    fs.rmSync(out, { recursive: true, force: true });
  }
});
