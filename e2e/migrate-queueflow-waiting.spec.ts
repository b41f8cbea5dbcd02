import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { e2eQueueflow } from './queueflow-server';
import { uniqueQueue } from './seed';

// Waiting Celery tasks (Redis, sent by Celery's own apply_async to a queue no worker consumes)
// moved into the real QueueFlow server from the queue's list (selected) and from a task's page,
// through the "Move to broker…" dialog: previewed, per-id outcomes shown, gone from Celery's
// queue, each a QueueFlow job with the mapped payload, its key, and the eta as run_at.

const qf = () => e2eQueueflow(e2eBrokers().dir);
const auth = () => ({ authorization: `Bearer ${qf().token!}` });

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  test.skip(!requireService(qf().why ?? null, 'QueueFlow server'), 'QueueFlow is not available');
});

async function jobsOf(queue: string): Promise<Array<Record<string, unknown>>> {
  const list = (await (await fetch(`${qf().url!}/api/v1/jobs?queue=${queue}&limit=10`, { headers: auth() })).json()) as {
    jobs: Array<{ id: string }>;
  };
  return Promise.all(list.jobs.map(async (j) => (await fetch(`${qf().url!}/api/v1/jobs/${j.id}`, { headers: auth() })).json()));
}

async function moveInDialog(page: Page, count: number) {
  const dialog = page.getByTestId('move-dialog');
  await dialog.getByTestId('move-target').selectOption('qf');
  await expect(dialog.getByTestId('move-summary')).toContainText(`Move ${count} waiting task`);
  await expect(dialog.getByTestId('move-preview-job')).toHaveCount(count);
  await dialog.getByTestId('confirm-reason').fill('OPS-8: drain the queue into QueueFlow');
  await dialog.getByTestId('move-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toHaveText(`${count} of ${count} moved`);
  return dialog;
}

test('waiting Celery tasks moved into QueueFlow from the queue list and from a task page', async ({ page }) => {
  const x = extraBrokers();
  const task = `shop.ship_${randomBytes(3).toString('hex')}`;
  const queue = uniqueQueue('mqw');
  const [a, b, c] = celerySeed<string>(x, [
    { op: 'enqueue', task, queue, args: [1, 'a'] },
    { op: 'enqueue', task, queue, args: [2, 'b'] },
    { op: 'enqueue', task, queue, args: [3, 'c'], countdown: 3600 },
  ]);
  const { pageErrors } = guardPage(page);
  const saved = await page.request.post('/api/brokers/celery/mappings', {
    data: { target: 'qf', task, targetTask: 'shop.ship', queue, args: ['order', 'label'] },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`/brokers/celery/queues/${queue}`);
  // The eta task is listed under its own state, not with the two ready ones.
  await expect(page.getByTestId('task-row')).toHaveCount(2);
  for (const id of [a, b]) await page.locator(`[data-testid="task-row"][data-id="${id}"]`).getByTestId('select-row').check();
  await page.getByTestId('bulk-bar').getByTestId('action-move').click();
  const dialog = await moveInDialog(page, 2);
  await expect(dialog.getByTestId('move-preview')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('migrate-waiting-list.png'), fullPage: true });
  await dialog.getByTestId('move-cancel').click();
  await expect(page.getByTestId('task-row')).toHaveCount(0);

  await page.goto(`/brokers/celery/jobs/${c}`);
  await page.getByTestId('task-detail').getByTestId('action-move').click();
  await moveInDialog(page, 1);

  const jobs = await jobsOf(queue);
  expect(jobs.map((j) => j.idempotency_key).sort()).toEqual([a, b, c].map((id) => `console-move-${id}`).sort());
  const byKey = (id: string) => jobs.find((j) => j.idempotency_key === `console-move-${id}`)!;
  expect(byKey(a!)).toMatchObject({ task_name: 'shop.ship', payload: { order: 1, label: 'a' } });
  expect(byKey(c!)).toMatchObject({ payload: { order: 3, label: 'c' } });
  expect(byKey(b!)).toMatchObject({ payload: { order: 2, label: 'b' } });
  expect(Date.parse(String(byKey(c!).scheduled_at)) - Date.now()).toBeGreaterThan(3000_000);
  expect(celerySeed<Record<string, number>>(x, [{ op: 'sizes' }])[0]![queue]).toBeUndefined();
  expect(pageErrors).toEqual([]);
});
