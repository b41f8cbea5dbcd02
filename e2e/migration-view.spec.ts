import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { e2eQueueflow } from './queueflow-server';
import { uniqueQueue } from './seed';

// The migration view of Celery and the real QueueFlow server after one of two failures moved
// through a call mapping, and the moved letter's page (today gone from Celery) saying where it
// went, its job's page in QueueFlow saying where it came from.

const qf = () => e2eQueueflow(e2eBrokers().dir);

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  test.skip(!requireService(qf().why ?? null, 'QueueFlow server'), 'QueueFlow is not available');
});

test('the migration view counts both sides per task name, and a moved letter says where it went', async ({ page, request }) => {
  const x = extraBrokers();
  const tag = randomBytes(3).toString('hex');
  const task = `shop.refund_${tag}`;
  const queue = uniqueQueue('migv');
  const reason = 'Traceback (most recent call last):\nValueError: no\n';
  const [moved, stays] = celerySeed<string>(x, [
    { op: 'dead_letter', task, queue, args: [1], kwargs: {}, reason },
    { op: 'dead_letter', task, queue, args: [2], kwargs: {}, reason },
  ]);
  const mapping = { target: 'qf', task, targetTask: `refund_${tag}`, queue, args: ['order'] };
  expect((await request.post('/api/brokers/celery/mappings', { data: mapping })).status()).toBe(200);
  const r = await request.post('/api/brokers/celery/dead/move', {
    data: { to: 'qf', ids: [moved], reason: 'OPS-9: refunds on QueueFlow' },
  });
  const jobId = ((await r.json()) as { succeeded: Array<{ taskId: string }> }).succeeded[0]?.taskId;
  expect(jobId).toBeTruthy();
  const { pageErrors } = guardPage(page);

  await page.goto('/brokers/celery/migrate');
  await page.getByTestId('migration-targets').getByRole('link', { name: 'Flows (QueueFlow)' }).click();
  const row = page.getByTestId(`migration-row-${task}`);
  await expect(row.getByTestId('mapped')).toHaveText('mapped');
  await expect(row).toContainText(`refund_${tag}`);
  await expect(row.getByTestId('source-dead')).toHaveText(/^(≥ )?1$/);
  // The moved job waits on its queue (no QueueFlow worker takes it): one there, none dead.
  await expect(row.getByTestId('target-waiting')).toHaveText('1');
  await expect(row.getByTestId('target-dead')).toHaveText('0');
  await expect(row.getByTestId('moved')).toHaveText('1 moved');
  await expect(page.getByTestId('migration-actions')).toContainText('OPS-9: refunds on QueueFlow');
  await expect(page.getByTestId(`moved-${stays}`)).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('migration-view.png'), fullPage: true });

  // The job's page in QueueFlow, from the view's link: where it came from.
  await page.getByTestId(`moved-${moved}`).getByRole('link', { name: jobId! }).click();
  await expect(page).toHaveURL(new RegExp(`/brokers/qf/jobs/${jobId}$`));
  await expect(page.getByTestId('moved-from')).toContainText('Moved here from Shop (Celery on Redis)');
  await expect(page.getByTestId('moved-from')).toContainText(moved!);

  // The letter's page on Celery: it is gone from there, and the page says where it went.
  await page.getByTestId('moved-from').getByRole('link', { name: moved! }).click();
  await expect(page).toHaveURL(new RegExp(`/brokers/celery/dead/${moved}$`));
  await expect(page.getByTestId('moved-to')).toContainText(`Moved to Flows (QueueFlow) as ${jobId}`);
  await page.getByTestId('moved-to').getByRole('link', { name: jobId! }).click();
  await expect(page).toHaveURL(new RegExp(`/brokers/qf/jobs/${jobId}$`));
  expect(pageErrors).toEqual([]);
});
