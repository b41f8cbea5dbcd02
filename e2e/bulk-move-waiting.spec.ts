import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { api, qf } from './queueflow-api';
import { uniqueQueue } from './seed';

// "Move all matching…" for waiting tasks (bulk action `move-waiting`): every ready task of a
// Celery-on-Redis queue (sent by Celery's own send_task, no worker on the queue) moved into the
// real QueueFlow server as one bulk job: the target picked first, the snapshot counted, the
// count confirmed; then in the brokers: each a QueueFlow job under its move key with the mapped
// payload, gone from Celery, and the task for later (not in the filter) left where it was; the
// job's campaign follows them on QueueFlow, each naming its Celery id, and is found by a Celery id.

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  test.skip(!requireService(qf().why ?? null, 'QueueFlow server'), 'QueueFlow is not available');
});

type QfJob = { idempotency_key?: string; task_name: string; payload: unknown; status: string };

test('all matching waiting Celery tasks moved into QueueFlow as one bulk job, counted and confirmed', async ({ page }) => {
  const x = extraBrokers();
  const task = `shop.pack_${randomBytes(3).toString('hex')}`;
  const queue = uniqueQueue('bmw');
  const ids = celerySeed<string>(x, [
    { op: 'enqueue', task, queue, args: [1, 'a'] },
    { op: 'enqueue', task, queue, args: [2, 'b'] },
    { op: 'enqueue', task, queue, args: [3, 'c'] },
    { op: 'enqueue', task, queue, args: [4, 'later'], countdown: 3600 },
  ]);
  const [later] = ids.splice(3, 1);
  const { pageErrors } = guardPage(page);
  const saved = await page.request.post('/api/brokers/celery/mappings', {
    data: { target: 'qf', task, targetTask: 'shop.pack', queue, args: ['order', 'label'] },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`/brokers/celery/queues/${queue}`);
  await expect(page.getByTestId('task-row')).toHaveCount(3);
  await page.getByTestId('bulk-all-move-waiting').click();
  const dialog = page.getByTestId('bulk-dialog');
  // The target first (none preselected), then the snapshot of what matches.
  await expect(dialog.getByTestId('bulk-move-pick')).toBeDisabled();
  await dialog.getByTestId('move-target').selectOption('qf');
  await dialog.getByTestId('bulk-move-pick').click();
  await expect(dialog.getByTestId('bulk-count')).toHaveText('3');
  const summary = dialog.getByTestId('bulk-summary');
  await expect(summary).toContainText('Move 3 waiting tasks on broker celery,');
  await expect(summary).toContainText(`queue ${queue}, to broker qf.`);
  await expect(dialog.getByTestId('bulk-confirm')).toBeDisabled();
  await dialog.getByTestId('confirm-reason').fill('OPS-10: packing runs on QueueFlow now');
  await expect(dialog.getByTestId('bulk-confirm')).toHaveText('Move 3 waiting tasks');
  await page.screenshot({ path: test.info().outputPath('bulk-move-waiting-confirm.png'), fullPage: true });
  await dialog.getByTestId('bulk-confirm').click();
  await expect(dialog.getByTestId('bulk-outcome')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(dialog.getByTestId('bulk-succeeded')).toHaveText('3 of 3 moved');
  await expect(dialog.getByTestId('bulk-failed')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('bulk-move-waiting-done.png'), fullPage: true });

  // On QueueFlow: one job per task, under its move key, with the mapped payload.
  const list = await api<{ jobs: Array<{ id: string }> }>('GET', `/api/v1/jobs?queue=${queue}&limit=20`);
  const jobs = await Promise.all(list.body.jobs.map(async (j) => (await api<QfJob>('GET', `/api/v1/jobs/${j.id}`)).body));
  expect(jobs.map((j) => j.idempotency_key).sort()).toEqual(ids.map((id) => `console-move-${id}`).sort());
  const byId = (id: string) => jobs.find((j) => j.idempotency_key === `console-move-${id}`);
  expect(ids.map((id) => byId(id)?.payload)).toEqual([
    { order: 1, label: 'a' },
    { order: 2, label: 'b' },
    { order: 3, label: 'c' },
  ]);
  expect(jobs.every((j) => j.task_name === 'shop.pack' && j.status === 'pending')).toBe(true);
  // On Celery: the three are gone; the task for later (another state) is still there, alone.
  const left = celerySeed<unknown>(x, [{ op: 'sizes' }, ...ids.map((id) => ({ op: 'payload', id })), { op: 'payload', id: later }]);
  expect((left[0] as Record<string, number>)[queue]).toBe(1);
  expect(left.slice(1, 4)).toEqual([null, null, null]);
  expect(left[4]).toEqual(expect.any(String));
  // Followed on QueueFlow as a campaign, by the jobs' ids, each saying where it came from.
  const follow = dialog.getByTestId('bulk-campaign');
  await expect(follow).toHaveText('Follow what becomes of them');
  const href = await follow.getAttribute('href');
  await dialog.getByTestId('bulk-close').click();
  await expect(page.getByTestId('task-row')).toHaveCount(0);
  await page.goto(href!);
  await expect(page.getByTestId('campaign-row')).toHaveCount(1);
  await expect(page.getByTestId('campaign-row')).toContainText('bulk-move-waiting');
  await page.getByTestId('campaign-link').click();
  await expect(page.getByTestId('campaign-line')).toHaveText('3 waiting', { timeout: 20_000 });
  const from = page.getByTestId('campaign-item-from');
  await expect(from).toHaveCount(3);
  expect((await from.allTextContents()).sort()).toEqual(ids.map((id) => `from celery/${id}`).sort());
  // A moved task's campaigns, found by its id on Celery (the broker it came from) too.
  await page.goto(`/campaigns?task=${encodeURIComponent(ids[0]!)}`);
  await expect(page.getByTestId('campaign-row')).toHaveCount(1);
  await expect(page.getByTestId('campaign-row')).toContainText('bulk-move-waiting');
  expect(pageErrors).toEqual([]);
});
