import amqp from 'amqplib';
import { expect, test, type Locator } from '@playwright/test';
import { extraBrokers, extraStatus, requireService, RMQ4_URL } from './brokers-extra';
import { brokerCard, guardPage } from './helpers';
import { queueCount } from './services';

// The console on a RabbitMQ 4 broker (Redis result backend under the run's key prefix). Global
// setup had a REAL potatoq worker dead-letter a failing task (`rt.flaky`) and a real Celery
// `send_task` of `proj.add` in the run's queue; these specs browse them, show the Celery
// banner and replay the potatoq letter. They share those two letters, hence serial.

test.describe.configure({ mode: 'serial' });

test.beforeEach(() => {
  test.skip(!requireService(extraStatus().rmq, 'RabbitMQ 4 (with Redis)'), 'RabbitMQ 4 is not available');
});

const seeded = () => {
  const seed = extraStatus().rmqSeed;
  if (!seed) throw new Error('global setup recorded no RabbitMQ letters');
  return { ...seed, queue: extraBrokers().rmq.queue };
};

/** The value cell of a row of the Celery headers table. */
const celeryCell = (info: Locator, key: string) =>
  info
    .locator('tr')
    .filter({ has: info.page().locator('th', { hasText: new RegExp(`^${key}$`) }) })
    .locator('td');

test("the RabbitMQ broker's overview card shows its queue with both dead letters", async ({ page }) => {
  const { queue } = seeded();
  const { pageErrors } = guardPage(page);
  await page.goto('/');
  const card = brokerCard(page, 'rmq');
  await expect(card).toHaveAttribute('data-state', 'ok');
  const row = card.locator(`[data-testid="queue-row"][data-queue="${queue}"]`);
  await expect(row).toBeVisible();
  // Both letters, unless a retry of this serial group runs after the replay took one. The
  // management API's statistics lag a few seconds; the page refreshes itself meanwhile.
  const dead = await queueCount(`${queue}.dlq`);
  expect(dead).toBeGreaterThanOrEqual(test.info().retry ? 1 : 2);
  await expect(row.getByTestId('count-dead')).toHaveText(String(dead), { timeout: 30_000 });
  await expect(row.getByTestId('count-ready')).toHaveText(String(await queueCount(queue)), { timeout: 30_000 });
  // Per-queue scheduled counts can't be had on RabbitMQ: the cell says "—" and a note says why.
  await expect(row.getByTestId('count-scheduled')).toHaveText('—');
  await expect(card.getByTestId('count-note-scheduled')).toContainText("potatoq's 28 potatoq.delay.Lnn queues");
  // SQLite knows every column: no notes there.
  await expect(brokerCard(page, 'main').getByTestId('count-notes')).toHaveCount(0);
  await expect(brokerCard(page, 'main')).toHaveAttribute('data-state', 'ok');
  expect(pageErrors).toEqual([]);
});

test("the dead-letter page lists the failed potatoq task and the Celery message with potatoq's reasons", async ({ page }) => {
  const { queue, flakyId, celeryId } = seeded();
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/rmq/dead?queue=${queue}`);
  await expect(page.getByTestId('dead-row')).toHaveCount(2);
  const flaky = page.locator(`[data-testid="dead-row"][data-id="${flakyId}"]`);
  await expect(flaky).toContainText('rt.flaky');
  await expect(flaky).toContainText('RuntimeError: first attempt fails');
  const celery = page.locator(`[data-testid="dead-row"][data-id="${celeryId}"]`);
  await expect(celery).toContainText('proj.add');
  await expect(celery).toContainText('This is a Celery (protocol 2) message');
  // Browsing keeps the letters (RabbitMQ 4 requeues them). A browse in flight (this page's
  // refresh, or the trends sampler recording deaths) holds them unacked for a moment, out of
  // the ready count: poll.
  await expect.poll(() => queueCount(`${queue}.dlq`)).toBe(2);
  expect(pageErrors).toEqual([]);
});

test("the Celery letter's page shows the Celery banner with its task name, id and arguments", async ({ page }) => {
  const { celeryId } = seeded();
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/rmq/dead/${celeryId}`);
  await expect(page.getByTestId('dead-detail')).toBeVisible();
  const banner = page.getByTestId('foreign-banner');
  await expect(banner).toHaveAttribute('data-kind', 'celery-v2');
  await expect(banner.getByTestId('foreign-reason')).toContainText('Celery');
  const info = banner.getByTestId('celery-info');
  await expect(celeryCell(info, 'task')).toHaveText('proj.add');
  await expect(celeryCell(info, 'id')).toHaveText(celeryId);
  const args = celeryCell(info, 'args');
  await expect(args.getByTestId('pv-int')).toHaveText(['2', '3']);
  await expect(celeryCell(info, 'kwargs')).toContainText('z');
  await expect(page.getByTestId('dead-reason')).toContainText('Celery');
  expect(pageErrors).toEqual([]);
});

test('replaying the potatoq letter takes it out of the DLQ and back into its work queue', async ({ page }) => {
  const { queue, flakyId, celeryId } = seeded();
  await expect.poll(() => queueCount(queue)).toBe(0);
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/rmq/dead?queue=${queue}`);
  await page.locator(`[data-testid="dead-row"][data-id="${flakyId}"]`).getByRole('link').first().click();
  await expect(page.getByTestId('dead-detail')).toBeVisible();
  await expect(page.getByTestId('dead-reason')).toContainText('RuntimeError: first attempt fails');
  await page.getByTestId('action-replay').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-summary')).toContainText(queue);
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  // RabbitMQ can't show a queued task's page: the page goes back to the dead letters, saying so.
  await expect(page).toHaveURL(/\/brokers\/rmq\/dead$/);
  await expect(page.getByTestId('toast-title').filter({ hasText: `Replayed as ${flakyId}` })).toBeVisible();
  await expect(page.getByText(/Unsupported/)).toHaveCount(0);

  // In RabbitMQ: the DLQ keeps only the Celery letter; the work queue holds the replayed task.
  await expect.poll(() => queueCount(`${queue}.dlq`)).toBe(1);
  await expect.poll(() => queueCount(queue)).toBe(1);
  await expect.poll(() => peekIds(queue)).toEqual([flakyId]);
  await expect.poll(() => peekIds(`${queue}.dlq`)).toEqual([celeryId]);
  await page.goto(`/brokers/rmq/dead?queue=${queue}`);
  await expect(page.getByTestId('dead-row')).toHaveCount(1);
  await expect(page.locator(`[data-testid="dead-row"][data-id="${celeryId}"]`)).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('converting the Celery letter shows the potatoq message first, then sends exactly that task to the work queue', async ({ page }) => {
  const { queue, celeryId } = seeded();
  const { pageErrors } = guardPage(page);
  // What the work queue holds before: the replayed potatoq task, unless a retry of this serial
  // group runs before the replay test did.
  const before = (await peekIds(queue)).length;
  await page.goto(`/brokers/rmq/dead/${celeryId}`);
  await page.getByTestId('action-convert').click();
  const dialog = page.getByTestId('confirm-dialog');
  const preview = dialog.getByTestId('convert-preview');
  // The Celery id is kept; args and kwargs come from the Celery body.
  await expect(preview).toContainText(`"task":"proj.add","args":[2,3],"kwargs":{"z":1},"id":"${celeryId}","queue":"${queue}"`);
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();

  // In RabbitMQ: the DLQ is empty and the work queue holds the converted task as a potatoq message.
  await expect.poll(() => queueCount(`${queue}.dlq`)).toBe(0);
  await expect.poll(() => queueCount(queue)).toBe(before + 1);
  await expect.poll(async () => (await peek(queue)).some((m) => m.id === celeryId)).toBe(true);
  const converted = (await peek(queue)).find((m) => m.id === celeryId);
  expect(JSON.parse(converted?.body ?? 'null')).toMatchObject({
    task: 'proj.add',
    args: [2, 3],
    kwargs: { z: 1 },
    id: celeryId,
    queue,
    v: 1,
  });
  expect(pageErrors).toEqual([]);
});

/** A queue's messages (id and body), each returned with nack(requeue) (safe on RabbitMQ 4 only). */
async function peek(name: string): Promise<Array<{ id: string; body: string }>> {
  const c = await amqp.connect(RMQ4_URL, { timeout: 5000 });
  try {
    const ch = await c.createChannel();
    const got: amqp.GetMessage[] = [];
    for (;;) {
      const m = await ch.get(name, { noAck: false });
      if (!m) break;
      got.push(m);
    }
    for (const m of got) ch.nack(m, false, true);
    await ch.close();
    return got.map((m) => ({ id: String(m.properties.messageId), body: m.content.toString('utf8') }));
  } finally {
    await c.close().catch(() => undefined);
  }
}

const peekIds = async (name: string) => (await peek(name)).map((m) => m.id);
