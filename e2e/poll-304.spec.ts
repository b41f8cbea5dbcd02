import { expect, test } from '@playwright/test';
import { guardPage } from './helpers';
import { startConsole, type RunningConsole } from './auth-server';
import { addDead, uniqueQueue } from './seed';

// In a real browser: the dead page's polls send back their answer's tag (lib/client/api.ts), the
// production server answers 304 while the list is unchanged (lib/http/fast-reads.ts), the page
// keeps showing what it holds, and a letter that dies meanwhile still appears.

let c: RunningConsole;
test.beforeAll(async () => {
  c = await startConsole({});
});
test.afterAll(async () => c?.stop());

test('an unchanged poll is a 304 and the page keeps its list; a change still shows', async ({ page }) => {
  test.setTimeout(60_000);
  const { pageErrors } = guardPage(page);
  const queue = uniqueQueue('poll304');
  addDead(c.broker, { queue, args: [1], reason: 'Traceback\nValueError: first-304-letter' });
  const statuses: number[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/brokers/main/dead') statuses.push(r.status());
  });
  await page.goto(`${c.url}/brokers/main/dead`);
  await expect(page.getByText('first-304-letter').first()).toBeVisible();
  await expect.poll(() => statuses.includes(304), { timeout: 30_000 }).toBe(true);
  expect(statuses.every((s) => s === 200 || s === 304)).toBe(true);
  await expect(page.getByText('first-304-letter').first()).toBeVisible();
  addDead(c.broker, { queue, args: [2], reason: 'Traceback\nValueError: second-304-letter' });
  await expect(page.getByText('second-304-letter').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('first-304-letter').first()).toBeVisible();
  expect(pageErrors).toEqual([]);
});
