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

test('edit and replay: a real potatoq letter replayed with a typed datetime and a new queue, run by a real worker', async ({ page }) => {
  test.setTimeout(150_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-edit-e2e-'));
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  const file = path.join(dir, 'broker.sqlite3');
  const url = `sqlite:///${file}`;
  const env = { ...process.env, RT_BROKER: url, RT_OUT: out, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
  execFileSync(POTATOQ, ['-b', url, 'migrate'], { cwd: dir, env, stdio: 'pipe' });
  const id = execFileSync(
    PYTHON,
    [
      '-c',
      'import datetime, decimal, rt_tasks as t; print(t.flaky.apply_async(args=[decimal.Decimal("12.50")], kwargs={"at": datetime.datetime(2026, 12, 1, 9, 0, tzinfo=datetime.timezone.utc)}, queue="rt-edit").id)',
    ],
    { cwd: PY, env },
  )
    .toString()
    .trim();
  const runWorker = async (queue: string, until_: () => boolean) => {
    const w = spawn(POTATOQ, ['-A', 'rt_tasks', '--no-color', '--no-emoji', 'worker', '-P', 'solo', '-Q', queue, '--no-scheduler'], {
      cwd: PY,
      env,
      stdio: 'ignore',
    });
    try {
      await until(`the worker on ${queue}`, until_, 60_000);
    } finally {
      w.kill('SIGTERM');
      await new Promise((r) => w.on('exit', r));
    }
  };
  // The real worker fails it: a dead letter as potatoq writes it.
  await runWorker('rt-edit', () => rows(file, 'SELECT id FROM potatoq_dead WHERE id = ?', id).length === 1);
  const c = await startConsole({ POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'ed', name: 'Edit', url }]) });
  try {
    const { pageErrors } = guardPage(page);
    await page.goto(`${c.url}/brokers/ed/dead/${id}`);
    const panel = page.getByTestId('edit-replay');
    await panel.getByTestId('edit-open').click();
    await expect(panel.getByTestId('edit-does')).toContainText(`It runs as ${id} (same id).`);
    // Typed fields: the Decimal argument and the datetime keyword, not tagged JSON.
    await expect(panel.getByTestId('edit-type-args[0]')).toHaveValue('decimal');
    await expect(panel.getByTestId('edit-args[0]')).toHaveValue('12.50');
    await expect(panel.getByTestId('edit-type-kwargs.at')).toHaveValue('datetime');
    // A value potatoq would not receive as a datetime is refused, under its own field.
    await panel.getByTestId('edit-kwargs.at').fill('tomorrow 9am');
    await panel.getByTestId('edit-preview').click();
    await expect(panel.getByTestId('edit-error-kwargs.at')).toContainText('is not an ISO 8601 date-time');
    await panel.getByTestId('edit-kwargs.at').fill('2026-12-02T10:30:00+01:00');
    await panel.getByTestId('edit-args[0]').fill('13.75');
    await panel.getByTestId('edit-queue').fill('rt-fixed');
    await panel.getByTestId('edit-preview').click();
    const diff = panel.getByTestId('edit-diff');
    await expect(diff.locator('[data-field="queue"]')).toHaveAttribute('data-changed', 'yes');
    await expect(diff.locator('[data-field="kwargs"]')).toHaveAttribute('data-changed', 'yes');
    await expect(diff.locator('[data-field="id"]')).toHaveAttribute('data-changed', 'no');
    await expect(diff.locator('[data-field="kwargs"]')).toContainText('2026-12-02T10:30:00+01:00');
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'edit-replay.png'), fullPage: true });
    await panel.getByTestId('confirm-reason').fill('e2e: corrected the date and the amount');
    await panel.getByTestId('edit-confirm').click();
    await expect(panel.getByTestId('edit-outcome')).toHaveAttribute('data-outcome', 'ok');

    // In the broker: the same id, ready on the new queue, with potatoq's tagged values.
    const job = rows<{ queue: string; state: number; payload: string }>(
      file,
      'SELECT queue, state, payload FROM potatoq_jobs WHERE id = ?',
      id,
    )[0]!;
    expect(job).toMatchObject({ queue: 'rt-fixed', state: 1 });
    expect(JSON.parse(job.payload)).toMatchObject({
      args: [{ __potatoq__: 'decimal', v: '13.75' }],
      kwargs: { at: { __potatoq__: 'datetime', v: '2026-12-02T10:30:00+01:00' } },
    });
    expect(rows(file, 'SELECT id FROM potatoq_dead WHERE id = ?', id)).toEqual([]);
    // The real worker runs it and receives a datetime and a Decimal.
    fs.writeFileSync(path.join(out, 'flaky-ok'), '');
    await runWorker('rt-fixed', () => fs.existsSync(path.join(out, `${id}.json`)));
    const seen = JSON.parse(fs.readFileSync(path.join(out, `${id}.json`), 'utf8')) as {
      args: string[][];
      kwargs: Record<string, string[]>;
    };
    expect(seen.args[0]).toEqual(['Decimal', "Decimal('13.75')"]);
    expect(seen.kwargs.at![0]).toBe('datetime');
    expect(seen.kwargs.at![1]).toContain('2026, 12, 2, 10, 30');
    // The audit entry records the edit and the message before and after.
    const trail = (await (await page.request.get(`${c.url}/api/audit?broker=ed&task=${id}`)).json()) as {
      entries: Array<{ action: string; reason: string; details: { before?: string; after?: string } }>;
    };
    const e = trail.entries.find((x) => x.action === 'replay-edited')!;
    expect(e.reason).toBe('e2e: corrected the date and the amount');
    expect(e.details.before).toContain('"queue":"rt-edit"');
    expect(e.details.after).toContain('"queue":"rt-fixed"');
    expect(pageErrors).toEqual([]);
  } finally {
    await c.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
