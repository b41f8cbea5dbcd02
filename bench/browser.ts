// `npm run bench:browser`: the browser budget, measured in Debian's Chromium against the
// production build (`next build` first) on a potatoq SQLite broker with 1,500 dead letters:
// first-load JavaScript (gzip) and time to interactive of the overview and of the dead-letter
// page. "Interactive" = the page's content is shown and the main thread is first idle after
// the load event (requestIdleCallback), measured from navigation start. A script, not a test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { migratedDb } from '@/tests/support/sqlite-db';
import { seedSqliteLive } from '@/tests/support/sqlite-live-seed';
import { pct, startConsole } from './potatoq-side';

const ROUNDS = Number(process.env.BENCH_ITERATIONS ?? 7);
const log = (s: string) => console.log(s);

async function visit(page: Page, url: string, ready: string): Promise<{ ms: number; jsGzip: number }> {
  const scripts: Array<Promise<number>> = [];
  const onResponse = (r: import('@playwright/test').Response) => {
    if (r.request().resourceType() === 'script')
      scripts.push(
        r.body().then(
          (b) => gzipSync(b).length,
          () => 0,
        ),
      );
  };
  page.on('response', onResponse);
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.locator(ready).first().waitFor({ state: 'visible' });
    const ms = await page.evaluate(() => new Promise<number>((resolve) => requestIdleCallback(() => resolve(performance.now()))));
    const jsGzip = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
    return { ms, jsGzip };
  } finally {
    page.off('response', onResponse);
  }
}

async function main(): Promise<void> {
  const file = migratedDb();
  seedSqliteLive(file, { queues: 20, waiting: 5_000, running: 50, retried: 10, dead: 1_500 }, 'none');
  log(
    `potatoq console browser budget: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const server = await startConsole({ id: 'bench', url: `sqlite:///${file}` });
  if (!server) throw new Error('no production build (.next/BUILD_ID): run `npx next build` first');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const cases: Array<[string, string, string, number]> = [
      ['overview', '/', '[data-testid="broker-card"] [data-testid^="total-"]', 1000],
      ['dead letters (1,500 in the broker)', '/brokers/bench/dead', '[data-testid="dead-list-card"] tbody tr', 1000],
    ];
    for (const [name, route, ready, budget] of cases) {
      const times: number[] = [];
      let js = 0;
      for (let i = 0; i < ROUNDS; i++) {
        // A fresh context per round: a first load, nothing cached.
        const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
        const page = await ctx.newPage();
        const r = await visit(page, `${server.url}${route}`, ready);
        await ctx.close();
        if (i > 0) times.push(r.ms); // the first round warms the server
        js = r.jsGzip;
      }
      const p50 = pct(times, 50);
      log(
        `  ${name.padEnd(40)} interactive min ${Math.min(...times).toFixed(0)} / p50 ${p50.toFixed(0)} / max ${Math.max(...times).toFixed(0)} ms (budget ${budget}: ${p50 <= budget ? 'ok' : 'OVER'}); first-load JS ${(js / 1024).toFixed(0)} KB gzip (budget 250: ${js / 1024 <= 250 ? 'ok' : 'OVER'})`,
      );
    }
    log(
      `  (load average now ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')})`,
    );
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
