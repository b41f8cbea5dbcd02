import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { brokerCard, guardPage } from './helpers';
import { addTask, rows, uniqueQueue } from './seed';

test('the overview lists every queue of a working broker next to an error card for a missing file', async ({ page }) => {
  const { main, gone } = e2eBrokers();
  const queue = uniqueQueue('overview');
  addTask(main, { queue });
  addTask(main, { queue, eta: Date.now() / 1000 + 3600 });
  const { pageErrors } = guardPage(page);

  await page.goto('/');
  const ok = brokerCard(page, 'main');
  await expect(ok).toHaveAttribute('data-state', 'ok');
  for (const name of ['default', 'emails', 'reports', 'billing', 'poison', queue]) {
    await expect(ok.locator(`[data-testid="queue-row"][data-queue="${name}"]`)).toBeVisible();
  }
  const row = ok.locator(`[data-testid="queue-row"][data-queue="${queue}"]`);
  await expect(row.getByTestId('count-ready')).toHaveText('1');
  await expect(row.getByTestId('count-scheduled')).toHaveText('1');

  const broken = brokerCard(page, 'gone');
  await expect(broken).toHaveAttribute('data-state', 'error');
  await expect(broken.getByTestId('error-box')).toContainText('gone.sqlite3');
  // The broken broker's card must not stop its neighbour from working.
  await ok.getByRole('link', { name: queue }).click();
  await expect(page.getByTestId('queue-name')).toHaveText(queue);
  await expect(page.getByTestId('task-row')).toHaveCount(1);
  // Reading never creates the missing file.
  expect(fs.existsSync(gone)).toBe(false);
  expect(rows(main, 'SELECT count(*) AS n FROM potatoq_jobs WHERE queue = ?', queue)).toEqual([{ n: 2 }]);
  expect(pageErrors).toEqual([]);
});
