import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { extraBrokers, extraStatus, requireService } from './brokers-extra';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { e2eQueueflow } from './queueflow-server';
import { addDead, addTask, claim, uniqueQueue } from './seed';
import { sdjBrokers, sdjDb, sdjStatus } from './sdj-dbs';
import { goEnqueue, makeDeadLetter } from '../tests/brokers/sdj/rows';

// Every page of each system in that system's words (issue 30, item 8): a task's name, its
// arguments, its delivery count, the revoke action and each list's order come from the
// adapter's model, never from another system. Screenshots go to test-results/words-*.png.

// Each test reads its own system (or theme) and nothing another changes: both workers may take them.
test.describe.configure({ mode: 'parallel' });

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`words-${name}.png`), fullPage: true });

/** Overview, workers, results and enqueue: screenshots, and no page error on any of them. */
async function tourRest(page: Page, brokerId: string, name: string): Promise<void> {
  for (const [path, what] of [
    ['', 'overview'],
    ['/workers', 'workers'],
    ['/results', 'results'],
    ['/enqueue', 'enqueue'],
  ] as const) {
    await page.goto(`/brokers/${brokerId}${path}`);
    await expect(page.locator('main')).toBeVisible();
    await shot(page, `${name}-${what}`);
  }
}

test('potatoq on SQLite: tasks, positional and keyword arguments, deliveries, Revoke, claim order', async ({ page }) => {
  const file = e2eBrokers().main;
  const queue = uniqueQueue('words');
  const id = addTask(file, { queue, task: 'shop.charge', args: [1001], kwargs: { note: 'first' } });
  const running = addTask(file, { queue, task: 'shop.charge' });
  claim(file, running);
  const dead = addDead(file, { queue, task: 'shop.refund', reason: 'ValueError: card declined' });
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/main/queues/${queue}?state=ready`);
  await expect(page.getByTestId('list-order')).toHaveText('Listed in the order workers claim them: highest priority first, then oldest.');
  await expect(page.getByTestId('task-table')).toContainText('Deliveries');
  await expect(page.getByTestId('action-revoke')).toHaveText('Revoke');
  await shot(page, 'potatoq-queue');
  await page.goto(`/brokers/main/queues/${queue}?state=running`);
  await expect(page.getByTestId('list-order')).toHaveText('Listed oldest claim first.');
  await page.goto(`/brokers/main/jobs/${id}`);
  await expect(page.getByTestId('payload-section')).toContainText('Keyword arguments');
  await expect(page.getByTestId('payload-args')).toContainText('1001');
  await shot(page, 'potatoq-job');
  await page.goto(`/brokers/main/dead/${dead}`);
  await expect(page.getByTestId('dead-detail')).toBeVisible();
  await shot(page, 'potatoq-dead');
  await tourRest(page, 'main', 'potatoq');
  expect(pageErrors).toEqual([]);
});

test("Celery on Redis: a message's count is its retries, and revoke is Celery's", async ({ page }) => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  const seed = extraStatus().celerySeed!;
  const { pageErrors } = guardPage(page);
  const queue = extraBrokers().celery.queue;
  await page.goto(`/brokers/celery/queues/${queue}`);
  await expect(page.getByTestId('task-table').locator('th', { hasText: 'Retries' })).toBeVisible();
  await expect(page.getByTestId('task-table')).not.toContainText('Deliveries');
  await expect(page.getByTestId('list-order')).toContainText('in the order workers receive them');
  await shot(page, 'celery-queue');
  await page.goto(`/brokers/celery/jobs/${seed.typed}`);
  await expect(page.getByTestId('task-detail')).toContainText('Retries');
  await expect(page.getByTestId('payload-section')).toContainText('Keyword arguments');
  await expect(page.getByTestId('action-revoke')).toHaveText('Revoke');
  await shot(page, 'celery-job');
  await page.goto(`/brokers/celery/dead/${seed.failures[0]}`);
  await shot(page, 'celery-dead');
  await tourRest(page, 'celery', 'celery');
  expect(pageErrors).toEqual([]);
});

test('QueueFlow: jobs with a payload, Cancel, and lists newest enqueued first as its API gives them', async ({ page }) => {
  const qf = e2eQueueflow(e2eBrokers().dir);
  test.skip(!requireService(qf.why, 'QueueFlow server'), `QueueFlow: ${qf.why}`);
  const queue = `e2ewords${randomBytes(3).toString('hex')}`;
  const create = async (payload: unknown) => {
    const r = await fetch(`${qf.url!}/api/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${qf.token!}`, 'content-type': 'application/json' },
      body: JSON.stringify({ task_name: 'billing.charge', payload, config: { queue } }),
    });
    return ((await r.json()) as { job_id: string }).job_id;
  };
  const first = await create({ order: 1 });
  const second = await create({ order: 2 });
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/qf/queues/${queue}?state=pending`);
  await expect(page.getByTestId('list-order')).toHaveText('Listed newest enqueued first.');
  await expect(page.getByTestId('task-row')).toHaveCount(2);
  expect(await page.getByTestId('task-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual([second, first]);
  await expect(page.getByTestId('task-table').locator('th', { hasText: 'Payload' })).toBeVisible();
  await expect(page.getByLabel('Job id', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Text in payload', { exact: true })).toBeVisible();
  await expect(page.getByTestId('action-revoke')).toHaveText('Cancel');
  await expect(page.getByTestId('bulk-all-revoke')).toHaveText('Cancel all matching…');
  await shot(page, 'queueflow-queue');
  await page.goto(`/brokers/qf/jobs/${first}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Job');
  await expect(page.getByTestId('detail-history')).toHaveText('Audit trail of this job');
  await expect(page.getByTestId('payload-value').getByRole('heading')).toHaveText('Payload');
  await expect(page.getByTestId('payload-section')).not.toContainText(/positional|Keyword arguments/);
  await expect(page.getByTestId('action-revoke')).toHaveText('Cancel');
  await page.getByTestId('action-revoke').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Cancel 1 job on broker qf');
  await page.getByTestId('confirm-cancel').click();
  await shot(page, 'queueflow-job');
  await page.goto('/brokers/qf/dead');
  await shot(page, 'queueflow-dead');
  await tourRest(page, 'qf', 'queueflow');
  expect(pageErrors).toEqual([]);
});

const pg = sdjBrokers(process.env.POTATOQ_E2E_DIR ?? '').find((b) => b.dialect === 'postgres');
test('Simple Durable Jobs on PostgreSQL: jobs with one args value, their attempt, Cancel, each list in its order', async ({ page }) => {
  test.skip(!pg || !requireService(sdjStatus(e2eBrokers().dir, pg.id), 'SDJ on PostgreSQL'), 'SDJ on PostgreSQL is not available');
  const db = sdjDb(e2eBrokers().dir, pg!.id);
  try {
    const queue = `e2ewords${randomBytes(3).toString('hex')}`;
    const id = await goEnqueue(db, { queue, type: 'billing.charge', args: { order: 1 } });
    const dead = await makeDeadLetter(db, { queue, type: 'billing.refund', args: 7, maxRetries: 0, error: 'card declined' });
    const { pageErrors } = guardPage(page);
    await page.goto(`/brokers/${pg!.id}/queues/${queue}?state=pending`);
    await expect(page.getByTestId('list-order')).toContainText('in the order workers claim them');
    const table = page.getByTestId('task-table');
    for (const head of ['Type', 'Attempt', 'Args']) await expect(table.locator('th', { hasText: head })).toBeVisible();
    await expect(page.getByLabel('Type', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Text in args', { exact: true })).toBeVisible();
    await expect(page.getByTestId('action-revoke')).toHaveText('Cancel');
    await shot(page, 'sdj-queue');
    await page.goto(`/brokers/${pg!.id}/queues/${queue}?state=completed`);
    await expect(page.getByTestId('list-order')).toHaveText('Listed newest enqueued first.');
    await page.goto(`/brokers/${pg!.id}/jobs/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Job');
    await expect(page.getByTestId('payload-value').getByRole('heading')).toHaveText('Args');
    await expect(page.getByTestId('task-detail')).toContainText('Attempt');
    await shot(page, 'sdj-job');
    // A scalar args value is that one value too, not hidden among the row's columns.
    await page.goto(`/brokers/${pg!.id}/dead/${dead}`);
    await expect(page.getByTestId('payload-value')).toContainText('7');
    // Its stored result is SDJ's finished row: named by its type, its status one of SDJ's.
    await expect(page.getByTestId('result-view')).toContainText('Type');
    await expect(page.getByTestId('result-status')).toHaveText('FAILED');
    await shot(page, 'sdj-dead');
    await page.goto(`/brokers/${pg!.id}/enqueue`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enqueue a job');
    expect(await page.getByLabel('Type', { exact: true }).getAttribute('placeholder')).toBeNull();
    await tourRest(page, pg!.id, 'sdj');
    // SDJ has no scheduled state: the stuck-work summary speaks of its jobs, not scheduled tasks.
    await page.goto(`/brokers/${pg!.id}`);
    await expect(page.getByTestId('stuck-panel')).toContainText('jobs held for a later time count as overdue');
    expect(pageErrors).toEqual([]);
  } finally {
    await db.close();
  }
});
