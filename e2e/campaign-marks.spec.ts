import { expect, test, type Locator } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addDead, deadRow, job, uniqueQueue } from './seed';

// Issue 34: a replay is marked on the dead-letter chart it answers. Two letters on the e2e
// SQLite broker replayed from their queue's page (its chart already drawn): the chart marks the
// campaign at the time it began, on that page at once and on the dead-letter page, and the
// mark's link opens the campaign's roll-up, which agrees with the broker (both waiting).

type DeadTrend = { from: string; to: string; campaigns: Array<{ id: string; at: string; action: string; count: number }> };

/** Every mark listed under a chart is a dashed line on its canvas: also one begun in the last
 *  bucket, which ends after the bucket's start, the last x of the chart. */
async function expectAllDrawn(chart: Locator) {
  const listed = await chart.getByTestId('trend-marks').locator('a').count();
  await expect(chart.getByTestId('trend-canvas')).toHaveAttribute('data-marks-drawn', String(listed));
}

test('a replay is marked on the dead-letter chart at its time, linking to its campaign', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('marks');
  const reason = 'Traceback (most recent call last):\nValueError: card declined\n';
  const ids = [1, 2].map((n) => addDead(main, { queue, task: 'demo.charge_card', args: [`cus_${n}`], reason }));
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/queues/${queue}?state=dead`);
  const chart = page.getByTestId('queue-trends').getByTestId('trend-dead');
  // The chart is drawn (and its answer cached) before the replay, as an operator would see it.
  // Other specs' campaigns of queues whose names are not known may be marked already
  // (docs/campaigns.md); this replay's is found by its own link below.
  await expect(chart.getByTestId('trend-summary')).toContainText('highest 2');

  const before = Date.now();
  await page.getByTestId('select-all').check();
  await page.getByTestId('action-replay').click();
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toContainText('2 of 2');
  const after = Date.now();
  // In the broker: both letters left the dead table and wait in their queue again.
  expect(ids.map((id) => deadRow(main, id))).toEqual([undefined, undefined]);
  expect(ids.map((id) => job(main, id)?.state)).toEqual([1, 1]);
  const href = await dialog.getByTestId('outcome-campaign').getAttribute('href');
  const campaign = decodeURIComponent(/^\/campaigns\/(.+)$/.exec(href ?? '')?.[1] ?? '');
  expect(campaign).not.toBe('');
  await dialog.getByTestId('confirm-cancel').click();

  // The console's answer: the campaign, begun between the click and the outcome.
  const trend = (await (await page.request.get(`/api/brokers/main/trends/dead?range=day&queue=${queue}`)).json()) as DeadTrend;
  const mark = trend.campaigns.find((c) => c.id === campaign);
  expect(mark).toMatchObject({ action: 'replay', count: 2 });
  const at = Date.parse(mark!.at);
  expect(at).toBeGreaterThanOrEqual(before - 1000);
  expect(at).toBeLessThanOrEqual(after + 1000);
  expect(at).toBeGreaterThanOrEqual(Date.parse(trend.from));
  expect(at).toBeLessThan(Date.parse(trend.to));
  // A queue's chart marks only its own campaigns: another queue's does not mark this replay.
  const other = (await (await page.request.get(`/api/brokers/main/trends/dead?range=day&queue=${queue}-other`)).json()) as DeadTrend;
  expect(other.campaigns.map((c) => c.id)).not.toContain(campaign);
  // Its time in words, as the browser writes it (its own time zone).
  const when = await page.evaluate(
    (ms) => new Date(ms).toLocaleString('en-GB', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
    at,
  );

  // The chart already on the page marks it without waiting for the next poll.
  const link = (scope: Locator) => scope.getByTestId('trend-marks').locator(`a[href="${href}"]`);
  await expect(link(chart)).toHaveText(`replay of 2 at ${when}`);
  await expectAllDrawn(chart);
  await chart.scrollIntoViewIfNeeded();
  await page.getByTestId('queue-trends-card').screenshot({ path: test.info().outputPath('campaign-mark-queue.png') });

  // And the dead-letter page's chart of the queue, whose link opens the campaign.
  await page.goto(`/brokers/main/dead?queue=${queue}`);
  const deadChart = page.getByTestId('dead-trends').getByTestId('trend-dead');
  await expect(link(deadChart)).toHaveText(`replay of 2 at ${when}`);
  await expectAllDrawn(deadChart);
  await page.getByTestId('dead-trends').screenshot({ path: test.info().outputPath('campaign-mark-dead.png') });
  await link(deadChart).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${encodeURIComponent(campaign)}$`));
  // No worker consumes the queue: the roll-up says both wait, as the broker does.
  await expect(page.getByTestId('campaign-line')).toHaveText('2 waiting');
  expect(ids.map((id) => job(main, id)?.state)).toEqual([1, 1]);
  await page.screenshot({ path: test.info().outputPath('campaign-page.png'), fullPage: true });
  expect(pageErrors).toEqual([]);
});
