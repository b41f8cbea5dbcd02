import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addDead, addTask, rows, uniqueQueue } from './seed';
import Database from 'better-sqlite3';

const reason = 'Traceback (most recent call last):\n  File "/srv/app/tasks.py", line 9, in sync\nTimeoutError: upstream slow\n';

const count = (file: string, sql: string, ...params: unknown[]) => Number(Object.values(rows(file, sql, ...params)[0] ?? { n: 0 })[0]);

test('replays every dead letter matching the filter, pinned to the snapshot the operator confirmed', async ({ page }) => {
  test.setTimeout(120_000);
  const { main } = e2eBrokers();
  const queue = uniqueQueue('bulk');
  const task = 'demo.bulk_sync';
  const wanted: string[] = [];
  for (let i = 0; i < 120; i++) wanted.push(addDead(main, { queue, task, args: [i], reason }));
  const others: string[] = [];
  for (let i = 0; i < 7; i++) others.push(addDead(main, { queue, task: 'demo.other', args: [i], reason }));
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/queues/${queue}?state=dead&task=${task}`);
  await expect(page.getByTestId('dead-row').first()).toBeVisible();
  await page.getByTestId('bulk-all-replay').click();
  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-count')).toHaveText('120');
  await expect(dialog.getByTestId('bulk-snapshot')).toContainText('snapshot taken at');
  await expect(dialog.getByTestId('bulk-summary')).toContainText(`broker main, queue ${queue}, task ${task}`);

  // Between the snapshot and the confirmation: one letter is discarded elsewhere, one more dies.
  const gone = wanted[60]!;
  const db = new Database(main, { timeout: 10_000 });
  try {
    db.prepare('DELETE FROM potatoq_dead WHERE id = ?').run(gone);
  } finally {
    db.close();
  }
  const late = addDead(main, { queue, task, args: ['late'], reason });

  await expect(dialog.getByTestId('bulk-confirm')).toBeDisabled(); // a reason first: it goes into the audit trail
  await dialog.getByTestId('confirm-reason').fill('e2e: upstream fixed, redrive');
  await dialog.getByTestId('bulk-confirm').click();
  const outcome = dialog.getByTestId('bulk-outcome');
  await expect(outcome).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(outcome.getByTestId('bulk-succeeded')).toHaveText('119 of 120 replayed');
  await expect(outcome.getByTestId('bulk-skipped')).toHaveText('1 skipped');
  await expect(page.getByTestId('toast').filter({ hasText: '119 of 120 dead letters replayed' })).toContainText(
    '1 skipped (changed since the snapshot)',
  );
  await expect(outcome.locator(`[data-testid="bulk-skipped-list-item"][data-id="${gone}"]`)).toContainText('missing');

  // In the broker: the 119 are ready tasks, their letters are gone; the late letter and the
  // other task's letters were never touched.
  expect(count(main, `SELECT count(*) AS n FROM potatoq_jobs WHERE queue = ? AND task = ? AND state = 1`, queue, task)).toBe(119);
  expect(rows<{ id: string }>(main, 'SELECT id FROM potatoq_dead WHERE queue = ? ORDER BY id', queue).map((r) => r.id)).toEqual(
    [late, ...others].sort(),
  );
  await dialog.getByTestId('bulk-close').click();
  await expect(page.locator(`[data-testid="dead-row"][data-id="${late}"]`)).toBeVisible();
  await expect(page.getByTestId('dead-row')).toHaveCount(1);
  expect(pageErrors).toEqual([]);
});

test('revokes every waiting task matching the filter, and cancel before confirming changes nothing', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('bulk-rv');
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) ids.push(addTask(main, { queue, task: 'demo.bulk_rv', args: [i] }));
  const keep = addTask(main, { queue, task: 'demo.keep', args: [] });
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/queues/${queue}?state=ready&task=demo.bulk_rv`);
  await page.getByTestId('bulk-all-revoke').click();
  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-count')).toHaveText('30');
  await dialog.getByTestId('bulk-close').click();
  await expect(dialog).toHaveCount(0);
  expect(count(main, 'SELECT count(*) FROM potatoq_jobs WHERE queue = ?', queue)).toBe(31);

  await page.getByTestId('bulk-all-revoke').click();
  await expect(dialog.getByTestId('bulk-summary')).toContainText('ready tasks');
  await dialog.getByTestId('confirm-reason').fill('e2e: cleanup');
  await dialog.getByTestId('bulk-confirm').click();
  await expect(dialog.getByTestId('bulk-outcome')).toHaveAttribute('data-state', 'done');
  await expect(dialog.getByTestId('bulk-succeeded')).toHaveText('30 of 30 revoked');
  expect(rows<{ id: string }>(main, 'SELECT id FROM potatoq_jobs WHERE queue = ?', queue).map((r) => r.id)).toEqual([keep]);
  const marks = `SELECT count(*) FROM potatoq_results WHERE state = 'REVOKED' AND id IN (${ids.map(() => '?').join(', ')})`;
  expect(count(main, marks, ...ids)).toBe(30);
  expect(pageErrors).toEqual([]);
});

test('the HTTP API creates a snapshot, refuses a start without a reason or with another count, then runs it', async ({ request }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('bulk-api');
  for (let i = 0; i < 12; i++) addDead(main, { queue, task: 'demo.bulk_api', args: [i], reason });
  const base = '/api/brokers/main/bulk';

  const bad = await request.post(base, { data: { action: 'purge', filter: { queue } } });
  expect(bad.status()).toBe(400);
  const created = await request.post(base, { data: { action: 'discard', filter: { queue } } });
  expect(created.status()).toBe(200);
  const job = (await created.json()) as { id: string; state: string; progress: { total: number } };
  expect(job).toMatchObject({ state: 'queued', progress: { total: 12 } });

  const noReason = await request.post(`${base}/${job.id}/start`, { data: { confirmCount: 12 } });
  expect(noReason.status()).toBe(400);
  expect((await noReason.json()).error.fields).toHaveProperty('reason');
  const wrongCount = await request.post(`${base}/${job.id}/start`, { data: { confirmCount: 11, reason: 'e2e api' } });
  expect(wrongCount.status()).toBe(409);
  expect(count(main, 'SELECT count(*) FROM potatoq_dead WHERE queue = ?', queue)).toBe(12);

  const started = await request.post(`${base}/${job.id}/start`, { data: { confirmCount: 12, reason: 'e2e api' } });
  expect(started.status()).toBe(200);
  await expect.poll(async () => ((await (await request.get(`${base}/${job.id}`)).json()) as { state: string }).state).toBe('done');
  const done = (await (await request.get(`${base}/${job.id}`)).json()) as { progress: { succeeded: number } };
  expect(done.progress.succeeded).toBe(12);
  expect(count(main, 'SELECT count(*) FROM potatoq_dead WHERE queue = ?', queue)).toBe(0);
  expect((await request.get(`${base}/not-a-job-id-000`)).status()).toBe(404);
});

test('a paced job started elsewhere is reopened from the list, paused, resumed and cancelled; the rest stays dead', async ({
  page,
  request,
}) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('bulk-pace');
  for (let i = 0; i < 40; i++) addDead(main, { queue, task: 'demo.bulk_pace', args: [i], reason });
  const base = '/api/brokers/main/bulk';
  const job = (await (await request.post(base, { data: { action: 'replay', filter: { queue }, rate: 4 } })).json()) as { id: string };
  expect((await request.post(`${base}/${job.id}/start`, { data: { reason: 'e2e paced' } })).status()).toBe(200);
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/queues/${queue}?state=dead`);
  await page.locator(`[data-testid="bulk-job-open"][data-id="${job.id}"]`).click();
  const dialog = page.getByTestId('bulk-dialog');
  const progress = dialog.getByTestId('bulk-progress');
  await expect(progress).toHaveAttribute('data-state', 'running');
  await expect(progress).toContainText('at 4/s');
  await dialog.getByTestId('bulk-pause').click();
  await expect(progress).toHaveAttribute('data-state', 'paused');
  await page.waitForTimeout(800); // a batch in flight when pausing still completes
  const pausedAt = await dialog.getByTestId('bulk-processed').textContent();
  await page.waitForTimeout(1500);
  await expect(dialog.getByTestId('bulk-processed')).toHaveText(pausedAt!);
  await dialog.getByTestId('bulk-resume').click();
  await expect(progress).toHaveAttribute('data-state', 'running');
  await dialog.getByTestId('bulk-cancel').click();
  const outcome = dialog.getByTestId('bulk-outcome');
  await expect(outcome).toHaveAttribute('data-state', 'cancelled');
  const done = Number(/^(\d+)/.exec((await outcome.getByTestId('bulk-succeeded').textContent()) ?? '')![1]);
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(40);
  await expect(outcome.getByTestId('bulk-not-reached')).toContainText(`${40 - done} not reached`);
  expect(count(main, 'SELECT count(*) FROM potatoq_dead WHERE queue = ?', queue)).toBe(40 - done);
  expect(count(main, 'SELECT count(*) FROM potatoq_jobs WHERE queue = ? AND state = 1', queue)).toBe(done);
  expect(pageErrors).toEqual([]);
});
