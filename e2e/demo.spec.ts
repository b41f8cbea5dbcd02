import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_PORT, e2eBrokers } from './brokers';
import { brokerCard, guardPage } from './helpers';
import { rows } from './seed';

// The second server runs with no configuration, as `npm run demo` does: it must have created
// and seeded the demo broker at boot.
test('with no configuration the console creates and serves the demo broker (and shoots the README screenshot)', async ({
  page,
}, testInfo) => {
  const { demo } = e2eBrokers();
  expect(fs.existsSync(demo)).toBe(true);
  const queues = rows<{ queue: string }>(demo, 'SELECT DISTINCT queue FROM potatoq_jobs ORDER BY queue').map((r) => r.queue);
  expect(queues).toEqual(['billing', 'default', 'emails', 'poison', 'reports']);
  const { pageErrors } = guardPage(page);

  await page.goto(`http://127.0.0.1:${DEMO_PORT}/`);
  const card = brokerCard(page, 'demo');
  await expect(card).toHaveAttribute('data-state', 'ok');
  for (const q of queues) await expect(card.locator(`[data-testid="queue-row"][data-queue="${q}"]`)).toBeVisible();
  await expect(card.getByTestId('workers-alive')).toContainText('1 live worker');
  await expect(card.getByTestId('total-dead')).toHaveText('8');
  // Per queue: the live worker's queues count it; the dead worker (no heartbeat for 20 min) of
  // `default` is gone, not "stale"; nobody consumes `poison`.
  const workersOn = (q: string) => card.locator(`[data-testid="queue-row"][data-queue="${q}"] [data-testid="queue-workers"]`);
  await expect(workersOn('default')).toHaveText('1');
  await expect(workersOn('billing')).toHaveText('1');
  await expect(workersOn('poison')).toHaveText('0');
  // The poison queue's next claim crashes every potatoq worker: the overview says so, on that
  // queue only, and links the culprit.
  const blocked = card.getByTestId('queue-blocked');
  await expect(blocked).toHaveCount(1);
  await expect(blocked).toContainText('Workers on this queue crash');
  const headId = rows<{ id: string }>(
    demo,
    "SELECT id FROM potatoq_jobs WHERE state = 1 AND queue = 'poison' ORDER BY priority DESC, seq LIMIT 1",
  )[0]!.id;
  await expect(blocked.getByRole('link')).toHaveText(headId.slice(0, 40));
  // docs/screenshot.png is refreshed on request only, so test runs leave the checkout clean.
  const shot =
    process.env.POTATOQ_UPDATE_SCREENSHOT === '1'
      ? path.join(__dirname, '..', 'docs', 'screenshot.png')
      : testInfo.outputPath('overview.png');
  await page.setViewportSize({ width: 1360, height: 560 });
  await page.screenshot({ path: shot });
  expect(pageErrors).toEqual([]);
});
