import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { requireService } from './brokers-extra';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { e2eQueueflow, type E2eQueueflow } from './queueflow-server';

// The Schedules tab in Chromium: QueueFlow's cron schedules against the REAL server 0.6.0 (every
// action checked in the server), potatoq's periodic claims written by a REAL `potatoq beat`, and
// a system without schedules saying why. Screenshots go to test-results/schedules-*.png.

const qf = (): E2eQueueflow => e2eQueueflow(e2eBrokers().dir);

async function api<T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await fetch(`${qf().url!}${route}`, {
    method,
    headers: { authorization: `Bearer ${qf().token!}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
}
type Cron = { id: string; name: string; cron_expr: string; enabled: boolean };
const crons = async () => (await api<{ crons: Cron[] }>('GET', '/api/v1/cron?limit=100')).body.crons;
const cronNamed = async (name: string) => (await crons()).find((c) => c.name === name);

const row = (page: Page, name: string) => page.locator(`[data-testid="schedule-row"][data-schedule="${name}"]`);

async function act(page: Page, name: string, action: string, reason?: string) {
  await row(page, name).getByTestId(`schedule-${action}`).click();
  const dialog = page.getByTestId('schedule-action-dialog');
  await dialog.getByTestId('schedule-confirm-input').fill(name);
  if (reason) await dialog.getByTestId('confirm-reason').fill(reason);
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('action-outcome')).toBeVisible();
  const text = await dialog.getByTestId('action-outcome').textContent();
  await dialog.getByTestId('confirm-cancel').click();
  return text ?? '';
}

test('QueueFlow schedules: list, create (bad input refused), pause, resume, run now, edit, delete, each in the server', async ({
  page,
}, info) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const tag = randomBytes(3).toString('hex');
  const seeded = `e2e-nightly-${tag}`;
  await api('POST', '/api/v1/cron', { name: seeded, cron_expr: '30 3 * * 2-6', task_name: 'echo', payload: { tag }, queue: 'qf_inproc' });
  const { pageErrors } = guardPage(page);

  await page.goto('/brokers/qf');
  await page.getByTestId('nav-schedules').click();
  await expect(page).toHaveURL(/\/brokers\/qf\/schedules$/);
  await expect(row(page, seeded).getByTestId('schedule-words')).toHaveText('at 03:30 on Monday through Friday UTC');
  await expect(row(page, seeded).getByTestId('schedule-cron')).toHaveText('30 3 * * 2-6 (UTC)');
  await expect(page.getByTestId('schedules-cannot-see')).toContainText('tenant');

  // Create: bad input is refused under its field and nothing reaches the server.
  const name = `e2e-made-${tag}`;
  const before = (await crons()).length;
  await page.getByTestId('schedule-create').click();
  const form = page.getByTestId('schedule-form');
  await form.getByTestId('schedule-field-name').fill(name);
  await form.getByTestId('schedule-field-task').fill('echo');
  await form.getByTestId('schedule-field-queue').fill('qf_inproc');
  for (const [cron, tz, field, text] of [
    ['61 * * * *', 'UTC', 'cron', 'minutes must be within 0-59'],
    ['* * * * * *', 'UTC', 'cron', 'seconds field'],
    ['*/15 * * * *', 'Mars/Olympus', 'timeZone', 'is not a time zone'],
    ['*/15 * * * *', 'Europe/Paris', 'timeZone', 'evaluates every schedule in UTC'],
  ] as const) {
    await form.getByTestId('schedule-field-cron').fill(cron);
    await form.getByTestId('schedule-field-timeZone').fill(tz);
    await form.getByTestId('confirm-submit').click();
    await expect(form.getByTestId(`schedule-error-${field}`)).toContainText(text);
  }
  await form.getByTestId('schedule-field-payload').fill('[1]');
  await form.getByTestId('schedule-field-timeZone').fill('UTC');
  await form.getByTestId('confirm-submit').click();
  await expect(form.getByTestId('schedule-error-payload')).toContainText('JSON object');
  expect((await crons()).length).toBe(before);
  await form.getByTestId('schedule-field-payload').fill('{"n": 2}');
  await form.getByTestId('schedule-preview').click();
  await expect(form.getByTestId('schedule-preview-words')).toHaveText('every 15 minutes UTC');
  await expect(form.getByTestId('schedule-preview-call')).toContainText('POST /api/v1/cron');
  await expect(form.getByTestId('schedule-preview-call')).toContainText('"cron_expr": "*/15 * * * *"');
  await form.getByTestId('confirm-submit').click();
  await expect(form.getByTestId('action-outcome')).toContainText(`created "${name}"`);
  await form.getByTestId('confirm-cancel').click();
  expect(await cronNamed(name)).toMatchObject({ cron_expr: '*/15 * * * *', enabled: true });
  await page.screenshot({ path: info.outputPath('schedules-queueflow.png'), fullPage: true });

  // Pause and resume: the typed name confirms; the server's `enabled` follows.
  await act(page, name, 'pause');
  await expect.poll(async () => (await cronNamed(name))?.enabled).toBe(false);
  await expect(row(page, name)).toContainText('paused');
  await act(page, name, 'resume');
  await expect.poll(async () => (await cronNamed(name))?.enabled).toBe(true);

  // Run now: one job under the console's own idempotency key, linked from the dialog.
  const id = (await cronNamed(name))!.id;
  const ran = await act(page, name, 'run-now');
  const jobId = /job ([0-9a-f-]{36})/.exec(ran)![1]!;
  const job = (await api<{ task_name: string; payload: unknown; idempotency_key: string }>('GET', `/api/v1/jobs/${jobId}`)).body;
  expect(job).toMatchObject({ task_name: 'echo', payload: { n: 2 } });
  expect(job.idempotency_key).toMatch(new RegExp(`^console-run:${id}:`));

  // Edit: QueueFlow replaces the schedule (delete, then create), as the dialog says.
  await row(page, name).getByTestId('schedule-edit').click();
  const edit = page.getByTestId('schedule-form');
  await expect(edit.getByTestId('schedule-form-does')).toContainText('deletes it');
  await edit.getByTestId('schedule-field-cron').fill('0 9 * * 2');
  await edit.getByTestId('schedule-preview').click();
  await expect(edit.getByTestId('schedule-preview-call').first()).toContainText(`DELETE /api/v1/cron/${id}`);
  await edit.getByTestId('schedule-confirm-input').fill(name);
  await edit.getByTestId('confirm-reason').fill('move it to Monday mornings');
  await edit.getByTestId('confirm-submit').click();
  await expect(edit.getByTestId('action-outcome')).toContainText('replaced');
  await edit.getByTestId('confirm-cancel').click();
  const replaced = (await cronNamed(name))!;
  expect(replaced.id).not.toBe(id);
  expect(replaced.cron_expr).toBe('0 9 * * 2');
  await expect(row(page, name).getByTestId('schedule-words')).toHaveText('at 09:00 on Monday UTC');

  // Delete needs a reason; the server no longer has it.
  await act(page, name, 'delete', 'no longer needed');
  expect(await cronNamed(name)).toBeUndefined();
  await expect(row(page, name)).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test("a failing QueueFlow schedule shows on the broker's overview with its cause", async ({ page }) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const name = `e2e-failing-${randomBytes(3).toString('hex')}`;
  // The server's builtin `fail` task, no retries: each firing's job fails at once.
  const made = await api<{ cron_id: string }>('POST', '/api/v1/cron', {
    name,
    cron_expr: '*/3 * * * * *',
    task_name: 'fail',
    queue: 'qf_inproc',
    config: { max_retries: 0 },
  });
  try {
    await page.goto('/brokers/qf');
    const problem = page.getByTestId('broker-schedule-problem').filter({ hasText: name });
    await expect(problem).toContainText('failing');
    await expect(problem).toContainText("its last firing's job failed");
  } finally {
    await api('DELETE', `/api/v1/cron/${made.body.cron_id}`);
  }
});

test('potatoq periodic claims from a real beat, read only; Celery says why it has no schedules', async ({ page }) => {
  const b = e2eBrokers();
  const beat = spawn(path.resolve('.venv/bin/potatoq'), ['-A', 'pq_periodic', '--no-color', '--no-emoji', 'beat'], {
    cwd: path.resolve('tests/py'),
    env: { ...process.env, PYTHONUNBUFFERED: '1', RT_BROKER: `sqlite:///${b.main}`, RT_QUEUE: `e2esched${randomBytes(3).toString('hex')}` },
  });
  try {
    await page.goto('/brokers/main/schedules');
    await expect(page.getByTestId('schedule-row').filter({ hasText: 'pq-every-second' })).toContainText('fired about every 1s', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('schedules-cannot-see')).toContainText('beat_schedule');
    await expect(page.getByTestId('schedule-pause')).toHaveCount(0);
    await expect(page.getByTestId('schedule-create')).toHaveCount(0);
  } finally {
    beat.kill('SIGTERM');
  }
  const brokers = (await (await page.request.get('/api/brokers')).json()) as { brokers: Array<{ id: string; system: string }> };
  const celery = brokers.brokers.find((x) => x.system === 'celery');
  test.skip(!celery, 'no Celery broker configured in this run');
  await page.goto(`/brokers/${celery!.id}`);
  await expect(page.getByTestId('nav-schedules')).toHaveCount(0);
  await expect(page.getByTestId('broker-capabilities')).toContainText("Celery beat's schedule lives in the application");
  const r = await page.request.get(`/api/brokers/${celery!.id}/schedules`);
  expect(r.status()).toBe(501);
});
