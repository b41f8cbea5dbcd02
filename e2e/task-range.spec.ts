import fs from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { csvObjects } from '../tests/support/csv';
import { startConsole, type RunningConsole } from './auth-server';
import { extraBrokers, extraStatus, requireService } from './brokers-extra';

// A queue's task list ranged by enqueued time end to end, on a console of its own over a potatoq
// SQLite broker: half of one queue's ready tasks were enqueued two hours ago, half five minutes
// ago (potatoq's own created_at). "Last 15m" shows the young half only, the export writes those,
// a state tab keeps the range, and "Revoke all matching" states the range it froze.

test.describe.configure({ mode: 'serial' });

let c: RunningConsole;
let queue = '';
let young: string[] = [];
let total = 0;

test.beforeAll(async () => {
  c = await startConsole({});
  const db = new Database(c.broker);
  try {
    ({ queue } = db
      .prepare(
        'SELECT queue, count(*) AS n FROM potatoq_jobs WHERE state = 1 GROUP BY queue HAVING n BETWEEN 2 AND 40 ORDER BY n DESC LIMIT 1',
      )
      .get() as { queue: string });
    const ids = db.prepare('SELECT id FROM potatoq_jobs WHERE state = 1 AND queue = ? ORDER BY id').pluck().all(queue) as string[];
    const now = Date.now() / 1000;
    const set = db.prepare('UPDATE potatoq_jobs SET created_at = ? WHERE id = ?');
    ids.forEach((id, i) => set.run(i % 2 ? now - 7200 - i : now - 300 - i, id));
    young = ids.filter((_, i) => i % 2 === 0).sort();
    total = ids.length;
    expect(ids.length - young.length).toBeGreaterThanOrEqual(1);
  } finally {
    db.close();
  }
});
test.afterAll(async () => c?.stop());

test('ranges a queue’s ready tasks to the last 15 minutes of enqueueing, in the list, export and bulk dialog', async ({ page }) => {
  test.setTimeout(90_000);
  const base = `${c.url}/brokers/main/queues/${encodeURIComponent(queue)}`;
  const shown = async () =>
    (await page.getByTestId('task-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''))).sort();
  await page.goto(`${base}?state=ready`);
  await expect(page.getByTestId('task-row')).toHaveCount(total);

  await page.getByTestId('range-15m').click();
  await expect(page).toHaveURL(/[?&]since=15m(&|$)/);
  await expect(page.getByTestId('range-15m')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('task-row')).toHaveCount(young.length);
  expect(await shown()).toEqual(young);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').first().click()]);
  const rows = csvObjects(fs.readFileSync((await download.path())!, 'utf8'));
  expect(rows.map((r) => r.id).sort()).toEqual(young);

  // The bulk dialog states the range as the instants its snapshot froze; cancelled, nothing is done.
  await page.getByRole('button', { name: 'Revoke all matching…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('bulk-summary')).toContainText(/enqueued since \d{4}-\d\d-\d\dT[\d:.]+Z/);
  await expect(dialog.getByTestId('bulk-summary')).toContainText(`Revoke ${young.length} `);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Another state's tab keeps the range (an empty list is still ranged).
  await page.getByTestId('tab-scheduled').click();
  await expect(page).toHaveURL(/[?&]since=15m(&|$)/);
  await expect(page.getByTestId('range-15m')).toHaveAttribute('aria-current', 'true');

  // A bound that names no time is refused by name, nothing read.
  const bad = await page.request.get(`${c.url}/api/brokers/main/tasks?queue=${encodeURIComponent(queue)}&until=soon`);
  expect(bad.status()).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain('until');
});

test('a Celery queue says why its tasks have no range, and the API refuses one with that reason', async ({ page }) => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  const { queue: q } = extraBrokers().celery;
  const reason =
    "Celery's task messages carry no enqueue time (only an optional eta), so its lists cannot be filtered by when a task was enqueued";
  await page.goto(`/brokers/celery/queues/${encodeURIComponent(q)}?state=ready`);
  await expect(page.getByTestId('range-unavailable')).toHaveText(`Enqueued: no time range here: ${reason}`);
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  const refused = await page.request.get(`/api/brokers/celery/tasks?queue=${encodeURIComponent(q)}&since=1h`);
  expect(refused.status()).toBe(501);
  expect(JSON.stringify(await refused.json())).toContain('carry no enqueue time');
});
