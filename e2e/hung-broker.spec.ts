import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { seedDemoDatabase } from '../lib/demo/seed';
import { startConsole, type RunningConsole } from './auth-server';

// A broker that accepts TCP connections and never answers (a hung PostgreSQL behind a
// black-holing proxy) must hold back only its own card: the others render as soon as their
// broker answers, and the hung one becomes an error card naming the timeout.

const READ_TIMEOUT_MS = 8000;
let hung: net.Server;
const sockets: net.Socket[] = [];
let c: RunningConsole;
let dir: string;

test.beforeAll(async () => {
  hung = net.createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => hung.listen(0, '127.0.0.1', () => r()));
  const port = (hung.address() as net.AddressInfo).port;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-hung-e2e-'));
  const files = ['one', 'two'].map((n) => {
    const f = path.join(dir, `${n}.sqlite3`);
    const db = new Database(f);
    try {
      seedDemoDatabase(db);
    } finally {
      db.close();
    }
    return f;
  });
  c = await startConsole({
    POTATOQ_CONSOLE_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS),
    POTATOQ_CONSOLE_BROKERS: JSON.stringify([
      // Its connect timeout (5 s by default: "did not accept a connection in time") is set past
      // the read timeout, so what is checked here is the console's own per-broker timeout.
      { id: 'hung', name: 'Hung PostgreSQL', url: `postgresql://postgres@127.0.0.1:${port}/potatoq`, connectTimeoutMs: 30_000 },
      { id: 'one', name: 'First SQLite', url: `sqlite:///${files[0]}` },
      { id: 'two', name: 'Second SQLite', url: `sqlite:///${files[1]}` },
    ]),
  });
});

test.afterAll(async () => {
  await c?.stop();
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => hung.close(() => r()));
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the other brokers render long before the hung broker times out, which gets its own error card', async ({ page }) => {
  test.setTimeout(60_000);
  const started = Date.now();
  await page.goto(`${c.url}/`, { waitUntil: 'commit' });
  const one = page.locator('[data-broker="one"][data-state="ok"]');
  const two = page.locator('[data-broker="two"][data-state="ok"]');
  await expect(one).toBeVisible({ timeout: READ_TIMEOUT_MS / 2 });
  await expect(two).toBeVisible({ timeout: READ_TIMEOUT_MS / 2 });
  const othersAfter = Date.now() - started;
  expect(othersAfter).toBeLessThan(READ_TIMEOUT_MS / 2);
  await expect(one.getByTestId('total-dead')).not.toHaveText('');
  // The hung broker's card is still waiting while the others show their data.
  await expect(page.locator('[data-broker="hung"][data-state="loading"]')).toBeVisible();
  expect(sockets.length).toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/hung-broker-pending.png', fullPage: true });

  const hungCard = page.locator('[data-broker="hung"][data-state="error"]');
  await expect(hungCard).toBeVisible({ timeout: READ_TIMEOUT_MS + 10_000 });
  await expect(hungCard).toContainText(`overview took longer than ${READ_TIMEOUT_MS / 1000}s`);
  await expect(hungCard).toContainText('BrokerTimeout');
  // The card names the console's own read timeout. When it came is not checked against the page's
  // start: background reads (the trends sampler, the alert evaluator) may ask the broker first,
  // and the page then shares their read, so its timeout can end sooner after the page loads.
  await expect(one).toBeVisible();
  await page.screenshot({ path: 'test-results/hung-broker-timeout.png', fullPage: true });
});

test("find by id answers from the brokers that answer, and names the hung one's timeout", async ({ page }) => {
  test.setTimeout(60_000);
  const started = Date.now();
  await page.goto(`${c.url}/find?id=no-such-task`, { waitUntil: 'commit' });
  await expect(page.locator('[data-broker="one"][data-found="0"]')).toBeVisible({ timeout: READ_TIMEOUT_MS / 2 });
  await expect(page.locator('[data-broker="two"][data-found="0"]')).toBeVisible({ timeout: READ_TIMEOUT_MS / 2 });
  expect(Date.now() - started).toBeLessThan(READ_TIMEOUT_MS / 2);
  await expect(page.locator('[data-broker="hung"][data-found="pending"]')).toBeVisible();
  const hungCard = page.locator('[data-broker="hung"][data-found="0"]');
  await expect(hungCard).toBeVisible({ timeout: READ_TIMEOUT_MS + 10_000 });
  // Whichever gives up first names it: the console's read timeout or the pool's connect timeout.
  await expect(hungCard.getByTestId('find-not-searched')).toContainText(
    new RegExp(
      `tasks not searched \\((BrokerTimeout\\): task lookup took longer than ${READ_TIMEOUT_MS / 1000}s|BrokerUnavailable\\): PostgreSQL did not accept a connection in time)`,
    ),
  );
});
