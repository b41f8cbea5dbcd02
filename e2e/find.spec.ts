import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addDead, addTask, uniqueQueue } from './seed';

// One search box in the header (and `/`) finds an id in every configured broker and state and
// in the audit trail, and links to it; a revoked task's page shows its result.

test('finds a waiting task by id from any page, follows it through a revoke to its REVOKED result and audit entry', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('find');
  const id = addTask(main, { queue, task: 'demo.find_me', args: [1] });
  const { pageErrors } = guardPage(page);

  await page.goto('/brokers/main/workers');
  // The shortcut works once the page has hydrated; press until it does.
  await expect(async () => {
    await page.keyboard.press('/');
    await expect(page.getByTestId('find-input')).toBeFocused({ timeout: 500 });
  }).toPass({ timeout: 10_000 });
  await page.keyboard.type(id);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/find\?id=/);
  await expect(page).toHaveTitle('Find by id · potatoq console');
  const mainCard = page.locator('[data-testid="find-broker"] [data-broker="main"]');
  await expect(mainCard.getByTestId('find-hit')).toHaveCount(1);
  await expect(mainCard.locator('[data-testid="find-hit"][data-kind="task"]')).toContainText('ready');
  await expect(mainCard).toContainText('demo.find_me');
  await expect(mainCard).toContainText(`queue ${queue}`);
  // Every other broker answered for itself: not there, or not searchable with why.
  const gone = page.locator('[data-testid="find-broker"] [data-broker="gone"]');
  await expect(gone.getByTestId('find-not-searched')).toContainText('not searched');
  await expect(gone.getByTestId('find-verdict')).toHaveText('could not search');
  await expect(page.getByTestId('find-audit')).toContainText('No console action named this id');

  await mainCard.getByTestId('find-hit-link').click();
  await expect(page.getByTestId('detail-id')).toContainText(id);
  await page.getByTestId('action-revoke').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-reason').fill('e2e: find then revoke');
  await page.getByTestId('confirm-dialog').getByTestId('confirm-submit').click();
  await expect(page.getByTestId('confirm-dialog').getByTestId('outcome-succeeded')).toBeVisible();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('task-finished')).toBeVisible();
  await expect(page.getByTestId('result-status')).toHaveText('REVOKED');
  await expect(page.getByTestId('action-revoke')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/find-revoked-task.png', fullPage: true });

  // A fresh load of the page (not only the live update) shows the result too.
  await page.reload();
  await expect(page.getByTestId('task-finished')).toBeVisible();
  await expect(page.getByTestId('detail-state')).toHaveText('revoked');

  await page.getByTestId('find-input').fill(id);
  await page.getByTestId('find-input').press('Enter');
  await expect(mainCard.locator('[data-testid="find-hit"][data-kind="result"]')).toContainText('REVOKED');
  await expect(mainCard.locator('[data-testid="find-hit"][data-kind="task"]')).toHaveCount(0);
  await expect(page.getByTestId('find-audit-entry')).toHaveCount(1);
  await expect(page.getByTestId('find-audit-entry')).toContainText('revoke');
  await expect(page.getByTestId('find-audit-entry')).toContainText('e2e: find then revoke');
  await page.screenshot({ path: 'test-results/find-results.png', fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('finds a dead letter and links to its page', async ({ page }) => {
  const { main } = e2eBrokers();
  const id = addDead(main, {
    queue: uniqueQueue('find-dead'),
    task: 'demo.find_dead',
    reason: 'Traceback (most recent call last):\n  File "/srv/app/x.py", line 1, in f\nKeyError: 7\n',
  });
  await page.goto(`/find?id=${encodeURIComponent(id)}`);
  const hit = page.locator('[data-broker="main"] [data-testid="find-hit"][data-kind="dead"]');
  await expect(hit).toContainText('demo.find_dead');
  await hit.getByTestId('find-hit-link').click();
  await expect(page).toHaveURL(new RegExp(`/brokers/main/dead/${id}$`));
  await expect(page.getByText('KeyError: 7').first()).toBeVisible();
});

test('an unknown id is "not here" in every broker, and the page still answers', async ({ page }) => {
  await page.goto('/find?id=no-such-id-anywhere');
  await expect(page.locator('[data-broker="main"][data-found="0"]')).toBeVisible();
  await expect(page.locator('[data-broker="main"]').getByTestId('find-verdict')).toHaveText('not here');
  await expect(page.getByTestId('find-hit')).toHaveCount(0);
});
