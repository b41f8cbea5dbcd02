import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { brokerCard, guardPage } from './helpers';
import { addDead, deadRow, job, result, uniqueQueue } from './seed';

test('a dead letter found from the overview is replayed into its queue as ready, without its eta', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('replay');
  const reason = 'Traceback (most recent call last):\n  File "/srv/app/tasks.py", line 3, in charge\nValueError: card declined\n';
  // A retried task carries an eta; potatoq's `dead retry` drops it so the task runs now.
  const id = addDead(main, { queue, task: 'demo.charge_card', args: ['cus_1'], reason, eta: Date.now() / 1000 - 30 });
  expect(job(main, id)).toBeUndefined();
  const { pageErrors } = guardPage(page);

  await page.goto('/');
  await brokerCard(page, 'main').getByRole('link', { name: queue }).click();
  await expect(page.getByTestId('queue-name')).toHaveText(queue);
  await page.getByTestId('tab-dead').click();
  const letter = page.locator(`[data-testid="dead-row"][data-id="${id}"]`);
  await expect(letter).toContainText('ValueError: card declined');
  await letter.getByRole('link').first().click();

  await expect(page.getByTestId('dead-detail')).toBeVisible();
  await expect(page.getByTestId('dead-reason')).toContainText('Traceback (most recent call last):');
  await page.getByTestId('action-replay').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-summary')).toContainText(queue);
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();

  // In the broker: the letter left potatoq_dead, the task is ready again, eta gone, result gone.
  expect(deadRow(main, id)).toBeUndefined();
  const replayed = job(main, id);
  expect(replayed).toMatchObject({ id, queue, task: 'demo.charge_card', state: 1 });
  const payload = JSON.parse(replayed!.payload) as Record<string, unknown>;
  expect(payload).not.toHaveProperty('eta');
  expect(payload).toMatchObject({ task: 'demo.charge_card', id, queue, args: ['cus_1'], retries: 1, v: 1 });
  expect(result(main, id)).toBeUndefined();
  // And in the page: the console takes us to the task, now ready.
  await expect(page).toHaveURL(new RegExp(`/jobs/${id}$`));
  await expect(page.getByTestId('detail-state')).toHaveText(/ready/i);
  expect(pageErrors).toEqual([]);
});
