import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { PG_URL } from './brokers-extra';
import { startConsole, type RunningConsole } from './auth-server';
import { guardPage } from './helpers';

// Trend charts on a console sampling every 2 s (its own seeded SQLite broker `main`, and
// `secretpg`, a broker that never answers), looked at in light and dark with screenshots; and
// two consoles on one PostgreSQL state store, of which exactly one samples at a time.

const SHOTS = path.resolve(__dirname, '../test-results/trends');
fs.mkdirSync(SHOTS, { recursive: true });

type QueueTrend = { depth: Array<number | null>; oldestSeconds: Array<number | null>; sampling: { on: boolean } };
type DeadTrend = { counts: number[]; total: number };

async function useTheme(page: Page, theme: 'light' | 'dark') {
  await page.addInitScript((t) => localStorage.setItem('potatoq-console-theme', t), theme);
}

test.describe('trend charts', () => {
  let c: RunningConsole;
  test.beforeAll(async () => {
    c = await startConsole({ POTATOQ_CONSOLE_TRENDS_INTERVAL_S: '2' });
    // The sampler's first tick runs at boot; wait until the state store holds a sample.
    await expect
      .poll(async () => {
        const t = (await (await fetch(`${c.url}/api/brokers/main/trends/queues?range=hour&queue=default`)).json()) as QueueTrend;
        return t.depth.filter((v) => v !== null).length;
      })
      .toBeGreaterThan(0);
  });
  test.afterAll(async () => c?.stop());

  for (const theme of ['light', 'dark'] as const) {
    test(`a queue's charts give their numbers on hover, in a summary and as a table (${theme})`, async ({ page }) => {
      const guard = guardPage(page);
      await useTheme(page, theme);
      const overview = (await (await fetch(`${c.url}/api/brokers/main/queues`)).json()) as {
        queues: Array<{ name: string; counts: { ready: number } }>;
      };
      const ready = overview.queues.find((q) => q.name === 'default')!.counts.ready;
      await page.goto(`${c.url}/brokers/main/queues/default`);
      const depth = page.getByTestId('trend-depth');
      await expect(depth.locator('canvas')).toBeVisible();
      await expect(depth.getByTestId('trend-summary')).toContainText(`Waiting: latest ${ready.toLocaleString('en-US')}`);
      // Hover the newest bucket (the right edge: the cursor snaps to the nearest bucket): uPlot's legend shows its numbers.
      const over = depth.locator('.u-over');
      await over.scrollIntoViewIfNeeded();
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
      await expect(depth.locator('.u-legend .u-series').nth(1).locator('.u-value')).toHaveText(ready.toLocaleString('en-US'));
      // And as a table: the newest row holds the same number.
      await depth.getByTestId('trend-table').locator('summary').click();
      await expect(depth.getByTestId('trend-table').locator('tbody tr').last().locator('td').nth(1)).toHaveText(
        ready.toLocaleString('en-US'),
      );
      await expect(page.getByTestId('trend-oldest').locator('canvas')).toBeVisible();
      const dead = (await (await fetch(`${c.url}/api/brokers/main/trends/dead?range=day&queue=default`)).json()) as DeadTrend;
      await expect(page.getByTestId('trend-dead').getByTestId('trend-summary')).toContainText(
        dead.total ? `highest ${Math.max(...dead.counts)}` : 'no data',
      );
      await page.getByTestId('trend-range-week').click();
      await expect(page.getByTestId('trend-range-week')).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('trend-dead')).toContainText('per hour');
      await page.getByTestId('trend-range-day').click();
      await expect(page.getByTestId('trend-dead')).toContainText('per 15 minutes');
      const again = (await depth.locator('.u-over').boundingBox())!;
      await page.mouse.move(again.x + again.width - 1, again.y + again.height / 2);
      await page.getByTestId('queue-trends-card').screenshot({ path: path.join(SHOTS, `queue-${theme}.png`) });
      expect(guard.pageErrors).toEqual([]);
    });

    test(`a dead-letter group's chart counts the group's letters (${theme})`, async ({ page }) => {
      const guard = guardPage(page);
      await useTheme(page, theme);
      await page.goto(`${c.url}/brokers/main/dead`);
      const group = page.getByTestId('dead-group').first();
      const fp = (await group.getAttribute('data-fingerprint'))!;
      await group.getByTestId('dead-group-link').click();
      await expect(page.getByTestId('active-group')).toHaveAttribute('data-fingerprint', fp);
      const t = (await (
        await fetch(`${c.url}/api/brokers/main/trends/dead?range=week&group=${encodeURIComponent(fp)}`)
      ).json()) as DeadTrend;
      const count = Number((await page.getByTestId('dead-group-count').first().textContent())!.replace(/,/g, ''));
      expect(t.total).toBe(count);
      await page.getByTestId('trend-range-week').click();
      const chart = page.getByTestId('trend-dead');
      await expect(chart.locator('canvas')).toBeVisible();
      await expect(chart).toContainText('Letters of this group (per hour)');
      await expect(chart.getByTestId('trend-summary')).toContainText(`highest ${Math.max(...t.counts)}`);
      await chart.getByTestId('trend-table').locator('summary').click();
      const cells = await chart.getByTestId('trend-table').locator('tbody tr td:nth-child(2)').allTextContents();
      expect(cells.reduce((n, v) => n + (v === '—' ? 0 : Number(v)), 0)).toBe(count);
      await page.getByTestId('dead-trends-card').screenshot({ path: path.join(SHOTS, `dead-group-${theme}.png`) });
      expect(guard.pageErrors).toEqual([]);
    });
  }

  test('the overview shows sparklines; a broker that never answers shows why, never breaks a chart', async ({ page }) => {
    const guard = guardPage(page);
    await page.goto(`${c.url}/`);
    const main = page.locator('[data-broker="main"]');
    await expect(main.getByTestId('sparkline-depth').locator('svg[role="img"]')).toHaveAttribute(
      'aria-label',
      /Waiting tasks, last 24 hours: latest \d+/,
    );
    await expect(main.getByTestId('sparkline-dead').locator('svg[role="img"]')).toBeVisible();
    await expect(page.locator('[data-broker="secretpg"]')).toHaveAttribute('data-state', 'error');
    await main.screenshot({ path: path.join(SHOTS, 'overview-light.png') });
    // The unreachable broker's dead-letter chart says why; its sampled charts show no samples.
    await page.goto(`${c.url}/brokers/secretpg/dead`);
    await expect(page.getByTestId('dead-trends').getByTestId('trend-error')).toContainText(/BrokerUnavailable|BrokerTimeout/);
    await page.goto(`${c.url}/brokers/secretpg/queues/default`);
    await expect(page.getByTestId('trend-depth').getByTestId('trend-summary')).toContainText('Waiting: no data in this window');
    await expect(page.getByTestId('trend-dead').or(page.getByTestId('trend-error'))).toBeVisible();
    expect(guard.pageErrors).toEqual([]);
  });
});

test.describe('two consoles on one PostgreSQL state store', () => {
  const schema = `e2e_trends_${randomBytes(4).toString('hex')}`;
  const state = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const admin = () => new pg.Client({ connectionString: PG_URL });
  const sql = async <R>(text: string, params: unknown[] = []): Promise<R[]> => {
    const cl = admin();
    await cl.connect();
    try {
      return (await cl.query(text, params)).rows as R[];
    } finally {
      await cl.end();
    }
  };
  let up = true;
  test.beforeAll(async () => {
    try {
      await sql(`CREATE SCHEMA ${schema}`);
    } catch (e) {
      up = false;
      if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw e;
      console.warn(`\n!!! PostgreSQL is not available (${(e as Error).message}): SKIPPING the shared state store spec !!!\n`);
    }
  });
  test.afterAll(async () => {
    if (up) await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  test('exactly one samples; when it stops, the other takes over', async () => {
    test.skip(!up, 'PostgreSQL is not available');
    test.setTimeout(120_000);
    // Every 2 s: a lease of 6 s, which a loaded machine's slow tick does not outlast.
    const env = { POTATOQ_CONSOLE_STATE: state, POTATOQ_CONSOLE_TRENDS_INTERVAL_S: '2' };
    // Null until the first console has made the tables.
    const holder = async () => {
      const rows = await sql<{ holder: string }>(
        `SELECT holder FROM ${schema}.console_leases WHERE expires_ms >= (extract(epoch FROM clock_timestamp()) * 1000)::bigint`,
      ).catch(() => []);
      return rows[0]?.holder ?? null;
    };
    const a = await startConsole(env);
    let b: RunningConsole | null = null;
    try {
      await expect.poll(holder, { timeout: 20_000 }).toMatch(new RegExp(`:${a.pid}:`));
      // Each console has its own broker file: a queue that only A's broker has tells whose samples they are.
      const mark = `mark${randomBytes(3).toString('hex')}`;
      const r = await fetch(`${a.url}/api/brokers/main/enqueue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: a.url },
        body: JSON.stringify({ task: 'e2e.mark', queue: mark }),
      });
      expect(r.status).toBe(200);
      b = await startConsole(env);
      const since = Date.now();
      await new Promise((res) => setTimeout(res, 7000));
      expect(await holder()).toMatch(new RegExp(`:${a.pid}:`));
      // Both counts in one query, so a slot written between two queries can't skew them.
      const slots = async (after: number) => {
        const [r] = await sql<{ total: string; mark: string }>(
          `SELECT count(*) FILTER (WHERE queue = '') AS total, count(*) FILTER (WHERE queue = $1) AS mark
             FROM ${schema}.console_trend_samples WHERE broker = 'main' AND at_ms >= $2`,
          [mark, after],
        );
        return { all: Number(r!.total), mark: Number(r!.mark) };
      };
      // While both run, every slot is A's (B's broker has no such queue): A sampled each of them.
      const both = await slots(since);
      expect(both.all).toBeGreaterThanOrEqual(3);
      expect(both.mark).toBe(both.all);
      await a.stop();
      const stopped = Date.now();
      await expect.poll(holder, { timeout: 20_000 }).toMatch(new RegExp(`:${b.pid}:`));
      await expect.poll(async () => (await slots(stopped + 2000)).all, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      expect((await slots(stopped + 2000)).mark).toBe(0);
    } finally {
      await a.stop();
      await b?.stop();
    }
  });
});
