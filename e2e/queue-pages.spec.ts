import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addTask, queueJobs } from './seed';

// The paged queue table (lib/brokers/queue-page.ts): past 50 queues a broker's page shows a
// search and pages the server cuts. Sixty queues of the e2e SQLite broker, named to sort after
// every other spec's (so those stay on the first page while these exist) and removed after:
// the search narrows on the server (the answer holds only matching queues), the pages step
// through them, and a row's counts are the broker's.

type Answer = { queues: Array<{ name: string }>; queuePage: { offset: number; limit: number; matched: number; total: number } };

/** Types `text` into the search and returns the server's answer to it. */
async function search(page: Page, text: string): Promise<Answer> {
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/brokers/main/queues?') && new URL(r.url()).searchParams.get('search') === text,
  );
  await page.getByTestId('queue-search').fill(text);
  return (await (await answer).json()) as Answer;
}

test('a broker with more than 50 queues: searched on the server, paged, counted as the broker does', async ({ page }) => {
  const { main } = e2eBrokers();
  const tag = randomBytes(3).toString('hex');
  const names = Array.from({ length: 60 }, (_, i) => `zz-${tag}-${String(i).padStart(2, '0')}`);
  // One waiting task a queue; three in queue 55 (on the second page).
  for (const [i, queue] of names.entries()) for (let n = 0; n < (i === 55 ? 3 : 1); n++) addTask(main, { queue, task: 'demo.echo' });
  const { pageErrors } = guardPage(page);
  try {
    await page.goto('/brokers/main');
    const pages = page.getByTestId('queue-pages');
    const info = pages.getByTestId('queue-page-info');
    const rows = pages.getByTestId('queue-row');
    await expect(info).toHaveText(/^1–50 of \d+ queues$/);
    await expect(rows).toHaveCount(50);

    const found = await search(page, `zz-${tag}`);
    // Narrowed on the server: one page of matching queues, not the broker's whole list.
    expect(found.queues.map((q) => q.name)).toEqual(names.slice(0, 50));
    expect(found.queuePage).toMatchObject({ offset: 0, limit: 50, matched: 60 });
    expect(found.queuePage.total).toBeGreaterThan(60);
    await expect(info).toHaveText(/^1–50 of 60 matching of \d+ queues$/);
    await expect(rows).toHaveCount(50);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-queue')))).toEqual(names.slice(0, 50));
    await expect(pages.getByTestId('queue-prev')).toBeDisabled();

    const next = page.waitForResponse((r) => r.url().includes('/api/brokers/main/queues?') && r.url().includes('offset=50'));
    await pages.getByTestId('queue-next').click();
    expect(((await (await next).json()) as Answer).queues.map((q) => q.name)).toEqual(names.slice(50));
    await expect(info).toHaveText(/^51–60 of 60 matching of \d+ queues$/);
    await expect(rows).toHaveCount(10);
    await expect(pages.getByTestId('queue-next')).toBeDisabled();
    // A row's count is the broker's: three waiting tasks in queue 55.
    expect(queueJobs(main, names[55]!)).toHaveLength(3);
    await expect(pages.locator(`[data-testid="queue-row"][data-queue="${names[55]}"]`).getByTestId('count-ready')).toHaveText('3');
    await page.screenshot({ path: test.info().outputPath('queue-pages-second.png'), fullPage: true });
    await pages.getByTestId('queue-prev').click();
    await expect(info).toHaveText(/^1–50 of 60 matching of \d+ queues$/);

    // Any case; and a search that matches nothing says so, with no table.
    expect((await search(page, `ZZ-${tag.toUpperCase()}-07`)).queues.map((q) => q.name)).toEqual([names[7]]);
    await expect(rows).toHaveCount(1);
    await expect(info).toHaveText(/^1–1 of 1 matching of \d+ queues$/);
    expect((await search(page, `nothing-${tag}`)).queues).toEqual([]);
    await expect(info).toHaveText(new RegExp(`^No queue name holds “nothing-${tag}” \\(\\d+ queues\\)$`));
    await expect(rows).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('queue-pages-none.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  } finally {
    const db = new Database(main, { timeout: 10_000 });
    try {
      db.prepare('DELETE FROM potatoq_jobs WHERE queue LIKE ?').run(`zz-${tag}-%`);
    } finally {
      db.close();
    }
  }
});
