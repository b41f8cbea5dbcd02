import { expect, test } from '@playwright/test';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { brokerCard, guardPage } from './helpers';

// The console on a plain Celery app's Redis broker and Redis result backend. Global setup had
// the REAL Celery 5.7 send three messages (one with kombu-typed kwargs, one at priority 6), one
// with a countdown, and store two FAILURE records as a worker does with result_extended. The
// specs read them and revoke one waiting message, checked in Redis through Celery itself.

test.describe.configure({ mode: 'serial' });

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
});

const seeded = () => {
  const seed = extraStatus().celerySeed;
  if (!seed) throw new Error('global setup recorded no Celery messages');
  return { ...seed, x: extraBrokers(), queue: extraBrokers().celery.queue };
};

test("the Celery broker's overview card shows its queue: waiting, future-ETA and failed counts", async ({ page }) => {
  const { queue } = seeded();
  const { pageErrors } = guardPage(page);
  await page.goto('/');
  const card = brokerCard(page, 'celery');
  await expect(card).toHaveAttribute('data-state', 'ok');
  const row = card.locator(`[data-testid="queue-row"][data-queue="${queue}"]`);
  await expect(row.getByTestId('count-ready')).toHaveText('3');
  await expect(row.getByTestId('count-scheduled')).toHaveText('1');
  await expect(row.getByTestId('count-dead')).toHaveText('2');
  await expect(card.getByTestId('count-note-oldest')).toContainText('no enqueue time');
  await page.screenshot({ path: test.info().outputPath('celery-overview.png'), fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('the waiting messages are listed in the order workers take them, decoded', async ({ page }) => {
  const { queue, waiting, typed } = seeded();
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/celery/queues/${queue}`);
  const rows = page.getByTestId('task-row');
  // kombu takes priority 0-2 before 6-8: the priority-6 message comes last.
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual([waiting[0], typed, waiting[1]]);
  await expect(rows.first()).toContainText('shop.charge');
  await expect(rows.first()).toContainText("[1001, 'EUR'] {'note': 'first'}");
  await page.screenshot({ path: test.info().outputPath('celery-waiting.png'), fullPage: true });

  await page.goto(`/brokers/celery/jobs/${typed}`);
  await expect(page.getByTestId('detail-task')).toContainText('shop.invoice');
  const kwargs = page.getByTestId('payload-kwargs');
  await expect(kwargs.getByTestId('pv-decimal')).toContainText('19.99');
  await expect(kwargs.getByTestId('pv-datetime')).toContainText('2026-01-02');
  await expect(kwargs.getByTestId('pv-uuid')).toContainText('12345678-1234-5678-1234-567812345678');
  const headers = page.getByTestId('message-headers');
  await expect(headers).toContainText('root_id');
  await expect(headers).toContainText(typed);
  await page.screenshot({ path: test.info().outputPath('celery-message.png'), fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('failures from the result backend are the dead letters, grouped by fingerprint, with their traceback', async ({ page }) => {
  const { queue, failures } = seeded();
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/celery/dead?queue=${queue}`);
  await expect(page.getByTestId('dead-row')).toHaveCount(2);
  for (const id of failures) await expect(page.locator(`[data-testid="dead-row"][data-id="${id}"]`)).toContainText('shop.charge');
  await expect(page.getByTestId('dead-group').first()).toContainText('CardDeclined: card for order <n> declined');
  await expect(page.getByTestId('dead-group-count').first()).toHaveText('2');
  await page.screenshot({ path: test.info().outputPath('celery-failures.png'), fullPage: true });
  await page.goto(`/brokers/celery/dead/${failures[1]}`);
  await expect(page.getByTestId('dead-detail')).toContainText('Traceback (most recent call last)');
  await expect(page.getByTestId('payload-args')).toContainText('4242');
  expect(pageErrors).toEqual([]);
});

test('revoking a waiting message removes it from its Redis list and stores REVOKED', async ({ page }) => {
  const { x, waiting } = seeded();
  const id = waiting[1]!;
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/celery/jobs/${id}`);
  await page.getByTestId('action-revoke').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('broadcast');
  await dialog.getByTestId('confirm-reason').fill('e2e: revoke a Celery message');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  const [state, result] = celerySeed<unknown>(x, [
    { op: 'state', id },
    { op: 'result', id },
  ]);
  expect(state).toBeNull();
  expect(result).toMatchObject({ status: 'REVOKED' });
  expect(pageErrors).toEqual([]);
});

test('enqueueing from the form writes the send_task message Celery workers decode, and purge empties the queue', async ({ page }) => {
  const { x } = seeded();
  const queue = `${x.celery.queue}-form`;
  const { pageErrors } = guardPage(page);
  await page.goto('/brokers/celery/enqueue');
  await page.getByLabel('Task name', { exact: true }).fill('shop.refund');
  await page.getByLabel('Queue', { exact: true }).fill(queue);
  await page.getByLabel('Arguments (JSON list)', { exact: true }).fill('[7, {"__type__": "decimal", "__value__": "9.90"}]');
  await page.getByLabel('Keyword arguments (JSON object)', { exact: true }).fill('{"reason": "<b>late</b>"}');
  await expect(page.getByTestId('cli-command')).toContainText('celery -A <app> call shop.refund');
  // `shop.refund` is two letters from the seeded `shop.remind`: the form holds it until confirmed.
  await page.getByTestId('enqueue-ack-unknown').check();
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-success')).toBeVisible();
  const id = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';
  // As a worker decodes it (kombu's loads): the Decimal is a Decimal again.
  const [m] = celerySeed<{ task: string; args: unknown[]; kwargs: Record<string, unknown>; headers: Record<string, unknown> } | null>(x, [
    { op: 'message', id },
  ]);
  expect(m).toMatchObject({ task: 'shop.refund', args: [7, '9.90'], kwargs: { reason: '<b>late</b>' } });
  expect(m?.headers).toMatchObject({ argsrepr: "[7, Decimal('9.90')]", root_id: id });

  await page.goto(`/brokers/celery/queues/${queue}`);
  await page.getByTestId('action-purge').click();
  const dialog = page.getByTestId('purge-dialog');
  await dialog.getByTestId('purge-confirm-input').fill(queue);
  await dialog.getByTestId('confirm-reason').fill('e2e: purge a Celery queue');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('action-outcome')).toContainText('Removed 1');
  expect(celerySeed(x, [{ op: 'sizes' }])[0]).not.toHaveProperty(queue);
  expect(pageErrors).toEqual([]);
});
