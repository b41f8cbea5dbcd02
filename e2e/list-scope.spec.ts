import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addDead, uniqueQueue } from './seed';

// A list that covers only part of what it lists says so next to its rows: a text search looks
// at the newest `searchWindow` letters only (SQLite, PostgreSQL), and an adapter can say in its
// own words what else bounds a list (RabbitMQ: a DLQ deeper than one read).

test('a text search says it looked only at the newest letters; the unfiltered list says nothing', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('scope');
  const token = `scope${Date.now().toString(36)}`;
  const id = addDead(main, { queue, reason: `ValueError: ${token} broke` });
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/dead?q=${token}`);
  await expect(page.locator(`[data-testid="dead-row"][data-id="${id}"]`)).toBeVisible();
  const note = page.getByTestId('dead-list-card').getByTestId('list-scope');
  await expect(note).toHaveText('This search looks at no more than the newest 10,000 letters: older ones may not be listed.');
  await expect(note).toHaveAttribute('role', 'note');

  await page.goto(`/brokers/main/dead?queue=${queue}`);
  await expect(page.locator(`[data-testid="dead-row"][data-id="${id}"]`)).toBeVisible();
  await expect(page.getByTestId('list-scope')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
