import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { guardPage } from './helpers';
import { startConsole, type RunningConsole } from './auth-server';
import { rows } from './seed';

// Dead letters grouped by error fingerprint, from the REAL potatoq: a worker fails 600 tasks of
// two bugs whose messages carry ids, amounts, durations, paths and quoted values
// (tests/py/fp_*.py). The page shows the 2 real groups; a whole group is replayed across every
// page with the exact count confirmed, and the broker shows it.

const ROOT = path.resolve(__dirname, '..');
const PY = path.join(ROOT, 'tests/py');
const POTATOQ = path.join(ROOT, '.venv/bin/potatoq');
let c: RunningConsole;
let dir: string;
let file: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-fp-e2e-'));
  file = path.join(dir, 'shop.sqlite3');
  const env = { ...process.env, FP_BROKER: `sqlite:///${file}`, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1' };
  execFileSync(POTATOQ, ['-A', 'fp_tasks', '--no-color', '--no-emoji', 'migrate'], { cwd: PY, env, stdio: 'pipe' });
  execFileSync(path.join(ROOT, '.venv/bin/python'), ['fp_produce.py', '600'], { cwd: PY, env });
  // A real worker fails them all, then is stopped.
  const worker = spawn(
    POTATOQ,
    ['-A', 'fp_tasks', '--no-color', '--no-emoji', 'worker', '-P', 'solo', '-Q', 'fp-billing,fp-exports', '--no-scheduler'],
    { cwd: PY, env, stdio: 'ignore' },
  );
  try {
    await expect.poll(() => count('SELECT count(*) FROM potatoq_dead'), { timeout: 60_000 }).toBe(600);
  } finally {
    worker.kill('SIGTERM');
  }
  c = await startConsole({ POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'shop', name: 'Shop', url: `sqlite:///${file}` }]) });
});

test.afterAll(async () => {
  await c?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const count = (sql: string, ...p: unknown[]) => Number(Object.values(rows(file, sql, ...p)[0] ?? { n: 0 })[0]);

test('600 letters with varied messages show as their 2 real groups, and a whole group is replayed with its exact count', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { pageErrors } = guardPage(page);
  await page.goto(`${c.url}/brokers/shop/dead`);
  await expect(page).toHaveTitle('Dead letters · shop · potatoq console');
  const groups = page.getByTestId('dead-group');
  await expect(groups).toHaveCount(2);
  await expect(page.getByTestId('dead-groups-total')).toContainText('600 letters in 2 groups');
  const charge = groups.nth(0);
  await expect(charge.getByTestId('dead-group-count')).toHaveText('400');
  await expect(charge.getByTestId('dead-group-link')).toHaveText(
    'fp_shop.billing.CardDeclined: customer <uuid> declined: amount <n> EUR over limit <n> after <dur> (gateway ref <hex>, reason <str>)',
  );
  await expect(charge.getByTestId('dead-group-frame')).toHaveText('raised at fp_shop/billing.py in _authorise');
  await expect(charge.getByTestId('dead-group-example')).toContainText('CardDeclined: customer ');
  await expect(groups.nth(1).getByTestId('dead-group-count')).toHaveText('200');
  await expect(groups.nth(1)).toContainText('ValueError: bad manifest <path> for order #<n>');
  await page.screenshot({ path: 'test-results/dead-groups.png', fullPage: true });

  await charge.getByTestId('dead-group-link').click();
  await expect(page).toHaveURL(/group=fp-[0-9a-f]{16}/);
  await expect(page.getByTestId('active-group')).toContainText('CardDeclined: customer <uuid>');
  await expect(page.getByTestId('dead-row').first()).toBeVisible();
  // Fewer rows are loaded than the group holds; the group action names the whole group.
  const loaded = await page.getByTestId('dead-row').count();
  expect(loaded).toBeLessThan(400);
  await expect(page.getByTestId('group-count')).toHaveText('This group, every page: 400 letters');
  await expect(page.getByTestId('bulk-all-replay')).toHaveText('Replay all 400 of this group…');
  await expect(page.getByText(/as loaded/)).toHaveCount(0);

  await page.getByTestId('bulk-all-replay').click();
  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-count')).toHaveText('400');
  await expect(dialog.getByTestId('bulk-summary')).toContainText('Replay 400 dead letters on broker shop, error group fp-');
  await expect(dialog.getByTestId('bulk-group-pattern')).toContainText('CardDeclined: customer <uuid> declined');
  await expect(dialog.getByTestId('bulk-count-changed')).toHaveCount(0);
  await expect(dialog.getByTestId('bulk-confirm')).toBeDisabled();
  await dialog.getByTestId('confirm-reason').fill('e2e: card gateway limit raised');
  await expect(dialog.getByTestId('bulk-confirm')).toHaveText('Replay 400 dead letters');
  await expect(dialog.getByTestId('bulk-confirm')).toBeEnabled();
  await page.screenshot({ path: 'test-results/dead-group-confirm.png' });
  await dialog.getByTestId('bulk-confirm').click();
  await expect(dialog.getByTestId('bulk-outcome')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(dialog.getByTestId('bulk-succeeded')).toHaveText('400 of 400 replayed');

  // In the broker: the 400 charges wait again, the 200 export letters were never touched.
  expect(count('SELECT count(*) FROM potatoq_jobs WHERE task = ? AND state = 1', 'shop.charge')).toBe(400);
  expect(count('SELECT count(*) FROM potatoq_dead WHERE task = ?', 'shop.charge')).toBe(0);
  expect(count('SELECT count(*) FROM potatoq_dead WHERE task = ?', 'shop.export')).toBe(200);
  await dialog.getByTestId('bulk-close').click();
  await page.goto(`${c.url}/brokers/shop/dead`);
  await expect(page.getByTestId('dead-group')).toHaveCount(1);
  expect(pageErrors).toEqual([]);
});

test('the groups table fits an 800 px window: nothing wider than its container, the page never scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  const { pageErrors } = guardPage(page);
  await page.goto(`${c.url}/brokers/shop/dead`);
  await expect(page.getByTestId('dead-group').first()).toBeVisible();
  await page.getByTestId('dead-groups-card').screenshot({ path: 'test-results/dead-groups-800.png' });
  const widths = await page.evaluate(() => {
    const table = document.querySelector<HTMLElement>('[data-testid="dead-groups"]')!;
    const box = document.querySelector<HTMLElement>('[data-testid="dead-groups-scroll"]')!;
    return { table: table.scrollWidth, box: box.clientWidth, page: document.documentElement.scrollWidth, window: window.innerWidth };
  });
  expect(widths.table).toBeLessThanOrEqual(widths.box);
  expect(widths.page).toBeLessThanOrEqual(widths.window);
  // Cut cells keep the whole text in their title.
  const tasks = page.getByTestId('dead-group').first().locator('td').nth(2);
  expect(await tasks.getAttribute('title')).toBeTruthy();
  expect(pageErrors).toEqual([]);
});
