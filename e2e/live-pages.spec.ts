import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { seedDemoDatabase } from '../lib/demo/seed';
import { startConsole, type RunningConsole } from './auth-server';
import { REDIS_URL } from './brokers-extra';

// How live a page is, and where it runs: a console with a potatoq SQLite broker named
// production and a potatoq Redis broker reached through a TCP relay this spec stops and starts
// again (a broker that stops answering mid-page). The console's own environment is staging.

const READ_TIMEOUT_MS = 3000;
const redis = new URL(REDIS_URL);

/** A relay to the real Redis that can be cut (every connection dropped, the port closed) and restored. */
class Relay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(Number(redis.port || 6379), redis.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}

const relay = new Relay();
let c: RunningConsole;
let dir: string;
let prodFile: string;

test.beforeAll(async () => {
  await relay.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-live-e2e-'));
  prodFile = path.join(dir, 'prod.sqlite3');
  const db = new Database(prodFile);
  try {
    seedDemoDatabase(db);
  } finally {
    db.close();
  }
  c = await startConsole({
    POTATOQ_CONSOLE_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS),
    POTATOQ_CONSOLE_ENVIRONMENT: 'staging',
    POTATOQ_CONSOLE_BROKERS: JSON.stringify([
      { id: 'prod', name: 'Production SQLite', url: `sqlite:///${prodFile}`, environment: 'production' },
      // Only read here (its overview): an empty database of the shared Redis is enough.
      { id: 'flaky', name: 'Flaky Redis', url: `redis://127.0.0.1:${relay.port}/14` },
    ]),
  });
});

test.afterAll(async () => {
  await c?.stop();
  await relay.cut();
  fs.rmSync(dir, { recursive: true, force: true });
});

const asOfMs = async (page: Page) => Date.parse((await page.getByTestId('live-status').getAttribute('data-as-of')) ?? '');
const slotTop = async (page: Page, id: string) => (await page.locator(`[data-broker-slot="${id}"]`).boundingBox())!.y;

test('says as of when, marks a broker that stopped answering stale with its error, first on the page', async ({ page }) => {
  test.setTimeout(90_000);
  const opened = Date.now();
  await page.goto(`${c.url}/`);
  const flaky = page.locator('[data-broker="flaky"][data-state="ok"]');
  await expect(flaky).toBeVisible();
  await expect(page.locator('[data-broker="prod"][data-state="ok"]')).toBeVisible();
  await expect(page.getByTestId('as-of')).toHaveText(/^as of \d\d:\d\d:\d\d UTC · \d\d:\d\d:\d\d/);
  expect(await asOfMs(page)).toBeGreaterThanOrEqual(opened - 2000);
  await expect(page.getByTestId('summary-up')).toHaveAttribute('data-count', '2');
  await expect(page.getByTestId('summary-down')).toHaveAttribute('data-count', '0');
  await expect(page.locator('[data-broker-slot="flaky"]')).not.toHaveAttribute('data-health', 'down');

  const cutAt = Date.now();
  await relay.cut();
  const mark = page.locator('[data-testid="stale-mark"][data-stale-broker="flaky"]');
  await expect(mark).toBeVisible({ timeout: 30_000 });
  await expect(mark).toHaveText(/^flaky: stale since \d\d:\d\d:\d\d UTC: .+/);
  // The last good data stays, marked stale; the page is as old as it.
  await expect(flaky).toBeVisible();
  await expect(flaky.getByTestId('card-stale')).toHaveText(/^Stale: showing the last data read, as of \d\d:\d\d:\d\d UTC\.$/);
  expect(await asOfMs(page)).toBeLessThanOrEqual(cutAt);
  await expect(page.getByTestId('summary-down')).toHaveAttribute('data-count', '1');
  await expect(page.locator('[data-broker-slot="flaky"]')).toHaveAttribute('data-health', 'down');
  expect(await slotTop(page, 'flaky')).toBeLessThan(await slotTop(page, 'prod'));
  await page.screenshot({ path: 'test-results/live-pages-stale.png', fullPage: true });

  await relay.start();
  await expect(mark).toBeHidden({ timeout: 30_000 });
  await expect(page.getByTestId('summary-down')).toHaveAttribute('data-count', '0');
  expect(await asOfMs(page)).toBeGreaterThan(cutAt);
});

test('Pause survives a reload: the page stays paused and its as-of time stays put', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`${c.url}/brokers/prod`);
  await expect(page.getByTestId('as-of')).toBeVisible();
  await page.getByTestId('refresh-indicator').click();
  await expect(page.getByTestId('refresh-state')).toHaveText('Paused');
  await page.reload();
  await expect(page.getByTestId('refresh-state')).toHaveText('Paused');
  await expect(page.getByTestId('as-of')).toHaveText(/^paused, as of /);
  const frozen = await asOfMs(page);
  // Two poll intervals: a live page would have read again.
  await page.waitForTimeout(11_000);
  expect(await asOfMs(page)).toBe(frozen);
  await page.getByTestId('refresh-indicator').click();
  await expect(page.getByTestId('refresh-state')).toHaveText(/^Live/);
  await expect.poll(() => asOfMs(page), { timeout: 15_000 }).toBeGreaterThan(frozen);
  await page.reload();
  await expect(page.getByTestId('refresh-state')).toHaveText(/^Live/);
});

test('names the environment on headers and cards, and a production purge asks for "production/<queue>"', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`${c.url}/`);
  // The console's own environment on the overview; each broker's on its card.
  await expect(page.getByTestId('environment-badge')).toHaveText('staging');
  await expect(page.locator('[data-broker="prod"]').getByTestId('card-environment')).toHaveText('production');
  await expect(page.locator('[data-broker="flaky"]').getByTestId('card-environment')).toHaveText('staging');

  const waiting = () => {
    const db = new Database(prodFile, { readonly: true });
    try {
      return db.prepare("SELECT count(*) FROM potatoq_jobs WHERE queue = 'emails' AND state IN (0, 1)").pluck().get() as number;
    } finally {
      db.close();
    }
  };
  const before = waiting();
  expect(before).toBeGreaterThan(0);

  await page.goto(`${c.url}/brokers/prod/queues/emails`);
  const badge = page.getByTestId('environment-badge');
  await expect(badge).toHaveText('production');
  await expect(badge).toHaveClass(/bg-red-100/);
  await page.getByTestId('action-purge').click();
  const dialog = page.getByTestId('purge-dialog');
  await expect(dialog.getByTestId('confirm-environment')).toHaveText('productionBroker prod is in production.');
  await dialog.getByTestId('confirm-reason').fill('e2e: environment badge');
  const submit = dialog.getByTestId('confirm-submit');
  await dialog.getByTestId('purge-confirm-input').fill('emails');
  await expect(submit).toBeDisabled();
  await dialog.getByTestId('purge-confirm-input').fill('production/emails');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(dialog.getByTestId('action-outcome')).toHaveText(`Removed ${before} waiting task${before === 1 ? '' : 's'} from emails.`);
  expect(waiting()).toBe(0);
});

test('a saved view survives a reload and its link brings the filter back; export downloads the filtered letters', async ({ page }) => {
  test.setTimeout(60_000);
  const queueOf = () => {
    const db = new Database(prodFile, { readonly: true });
    try {
      return db.prepare('SELECT queue, count(*) AS n FROM potatoq_dead GROUP BY queue ORDER BY n DESC LIMIT 1').get() as {
        queue: string;
        n: number;
      };
    } finally {
      db.close();
    }
  };
  const { queue } = queueOf();
  const idsIn = () => {
    const db = new Database(prodFile, { readonly: true });
    try {
      return (db.prepare('SELECT id FROM potatoq_dead WHERE queue = ?').pluck().all(queue) as string[]).sort();
    } finally {
      db.close();
    }
  };

  await page.goto(`${c.url}/brokers/prod/dead?queue=${encodeURIComponent(queue)}`);
  await page.getByTestId('saved-view-new').click();
  await page.getByTestId('saved-view-name').fill(`Only ${queue}`);
  await page.getByTestId('saved-view-save').click();
  await expect(page.getByTestId('saved-view-link')).toHaveText(`Only ${queue}`);

  await page.goto(`${c.url}/brokers/prod/dead`);
  await expect(page.getByTestId('filter-queue')).toHaveValue('');
  await page.getByTestId('saved-view-link').click();
  await expect(page).toHaveURL(new RegExp(`/brokers/prod/dead\\?queue=${encodeURIComponent(queue)}$`));
  await expect(page.getByTestId('filter-queue')).toHaveValue(queue);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('dead-list-card').getByTestId('export-csv').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^dead-prod-\d{8}T\d{6}\.csv$/);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  const lines = text.split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('id,queue,task,diedAt,summary,cause,preview');
  const ids = lines.slice(1).map((l) => l.split(',')[0]!);
  expect(ids.sort()).toEqual(idsIn());

  const audit = (await (await page.request.get(`${c.url}/api/audit?action=export&broker=prod`)).json()) as {
    entries: Array<{ outcome: string; count: number; filter: Record<string, unknown> }>;
  };
  expect(audit.entries[0]).toMatchObject({ outcome: 'done', count: ids.length, filter: { queue, format: 'csv' } });
});
