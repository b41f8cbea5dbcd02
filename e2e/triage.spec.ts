import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { guardPage } from './helpers';
import { startConsole } from './auth-server';
import { addDead, rows, uniqueQueue } from './seed';
import { e2eBrokers } from './brokers';

// Issue 12 items 2 and 6: stuck work named with its cause (a real potatoq worker killed while
// its task runs), and the flows after browser Back (the filter boxes, the counts).

const ROOT = path.resolve(__dirname, '..');
const POTATOQ = path.join(ROOT, '.venv/bin/potatoq');
const PYTHON = path.join(ROOT, '.venv/bin/python');
const PY = path.join(ROOT, 'tests/py');
const SHOTS = process.env.POTATOQ_E2E_SHOTS;

async function until(what: string, fn: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('stuck work: a killed worker’s task, a queue nobody consumes and an overdue schedule, each with its cause', async ({ page }) => {
  test.setTimeout(150_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-stuck-e2e-'));
  const file = path.join(dir, 'broker.sqlite3');
  const url = `sqlite:///${file}`;
  const env = { ...process.env, RT_BROKER: url, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
  execFileSync(POTATOQ, ['-b', url, 'migrate'], { cwd: dir, env, stdio: 'pipe' });
  const send = (queue: string, extra = '') =>
    execFileSync(
      PYTHON,
      ['-c', `import stuck_tasks as s; print(s.hold.apply_async(args=[300], queue=${JSON.stringify(queue)}${extra}).id)`],
      {
        cwd: PY,
        env,
      },
    )
      .toString()
      .trim();
  // A real worker claims the task, then dies without a word (SIGKILL: no unregister).
  const held = send('work');
  const worker = spawn(POTATOQ, ['-A', 'stuck_tasks', '--no-color', '--no-emoji', 'worker', '-P', 'solo', '-Q', 'work', '--no-scheduler'], {
    cwd: PY,
    env,
    stdio: 'ignore',
  });
  const stateOf = (id: string) => rows<{ state: number }>(file, 'SELECT state FROM potatoq_jobs WHERE id = ?', id)[0]?.state;
  try {
    await until('the worker to claim the task', () => stateOf(held) === 2);
  } finally {
    worker.kill('SIGKILL');
  }
  const idle = send('idle-q');
  const later = send('later-q', ', countdown=1');
  const c = await startConsole({
    POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'stuck', name: 'Stuck', url, workerDeadAfter: 2, workerHeartbeatInterval: 1 }]),
    POTATOQ_CONSOLE_OVERDUE_SECONDS: '2',
  });
  try {
    await new Promise((r) => setTimeout(r, 3500));
    const { pageErrors } = guardPage(page);
    await page.goto(`${c.url}/`);
    const panel = page.locator('[data-broker="stuck"] [data-testid="stuck-panel"]');
    await expect(panel).toHaveAttribute('data-state', 'stuck');
    const lost = panel.locator('[data-testid="stuck-flag"][data-check="worker-lost"]');
    await expect(lost.getByTestId('stuck-cause')).toContainText('1 task of queue work is marked running, but its worker');
    await expect(lost.getByTestId('stuck-cause')).toContainText('last sent a heartbeat');
    await expect(lost.getByTestId('stuck-cannot')).toContainText('never changes running tasks');
    await expect(panel.locator('[data-check="no-consumer"][data-queue="idle-q"] [data-testid="stuck-cause"]')).toContainText(
      '1 task waits in queue idle-q and no live worker consumes it',
    );
    await expect(panel.locator('[data-check="overdue"][data-queue="later-q"] [data-testid="stuck-cause"]')).toContainText(
      '1 scheduled task of queue later-q was due more than',
    );
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'stuck-overview.png'), fullPage: true });

    // The flag links to the task; its page says why it is stuck, and offers no action on it.
    await lost.getByTestId('stuck-link').click();
    await expect(page).toHaveURL(new RegExp(`/brokers/stuck/jobs/${held}$`));
    await expect(page.getByTestId('detail-state')).toHaveText('running');
    await expect(page.getByTestId('task-stuck')).toContainText('last sent a heartbeat');
    await expect(page.getByTestId('action-revoke')).toHaveCount(0);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'stuck-task.png'), fullPage: true });
    // The queue a flag names: its waiting task's page shows the queue's flag too.
    await page.goto(`${c.url}/brokers/stuck/jobs/${idle}`);
    await expect(page.getByTestId('task-stuck')).toContainText('no live worker consumes it');
    await page.goto(`${c.url}/brokers/stuck/jobs/${later}`);
    await expect(page.getByTestId('task-stuck')).toContainText('was due more than');

    // In the broker: nothing was changed by looking.
    expect(stateOf(held)).toBe(2);
    expect(stateOf(idle)).toBe(1);
    expect(stateOf(later)).toBe(0);
    expect(pageErrors).toEqual([]);
  } finally {
    await c.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('after browser Back the filter boxes show the filter the list and "all matching" use; tabs and lists carry counts', async ({
  page,
}) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('back');
  const reason = 'Traceback (most recent call last):\n  File "/srv/app/t.py", line 1, in f\nValueError: nope\n';
  for (let i = 0; i < 3; i++) addDead(main, { queue, task: 'demo.alpha', args: [i], reason });
  for (let i = 0; i < 2; i++) addDead(main, { queue, task: 'demo.beta', args: [i], reason });
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/main/queues/${queue}?state=dead`);
  await expect(page.getByTestId('dead-row')).toHaveCount(5);
  await expect(page.getByTestId('tab-count-dead')).toHaveText('5');
  await expect(page.getByTestId('tab-count-ready')).toHaveText('0');
  await expect(page.getByTestId('list-total')).toHaveText(' of 5');

  await page.getByTestId('filter-task').fill('demo.alpha');
  await page.getByTestId('filter-apply').click();
  await expect(page.getByTestId('dead-row')).toHaveCount(3);
  await page.getByTestId('filter-task').fill('demo.beta');
  await page.getByTestId('filter-apply').click();
  await expect(page.getByTestId('dead-row')).toHaveCount(2);
  await expect(page.getByTestId('list-total')).toHaveCount(0); // narrowed: no total to claim

  await page.goBack();
  await expect(page).toHaveURL(/task=demo\.alpha/);
  await expect(page.getByTestId('dead-row')).toHaveCount(3);
  await expect(page.getByTestId('filter-task')).toHaveValue('demo.alpha');
  await page.getByTestId('bulk-all-replay').click();
  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-count')).toHaveText('3');
  await expect(dialog.getByTestId('bulk-summary')).toContainText('task demo.alpha');
  // Every system gets the pacing control (a rate per second, empty = as fast as the broker takes them).
  await expect(dialog.getByTestId('bulk-rate')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'back-filter.png'), fullPage: true });
  await dialog.getByTestId('bulk-close').click();

  await page.goBack();
  await expect(page.getByTestId('dead-row')).toHaveCount(5);
  await expect(page.getByTestId('filter-task')).toHaveValue('');
  expect(pageErrors).toEqual([]);
});
