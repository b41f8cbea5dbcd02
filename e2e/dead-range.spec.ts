import fs from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { csvObjects } from '../tests/support/csv';
import { startConsole, type RunningConsole } from './auth-server';

// The dead-letter list's time range end to end, on a console of its own over a potatoq SQLite
// broker: half of one queue's letters died two hours ago, half five minutes ago (potatoq's own
// died_at). "Last 15m" shows the young half only, the export writes exactly those, and a saved
// view keeps the range as "15m": reopened, it is still the last 15 minutes. The groups (and their
// export) and the chart beside the list follow the range; the view's description is said on open.

test.describe.configure({ mode: 'serial' });

let c: RunningConsole;
let queue = '';
let young: string[] = [];
let old: string[] = [];

test.beforeAll(async () => {
  c = await startConsole({});
  const db = new Database(c.broker);
  try {
    ({ queue } = db.prepare('SELECT queue, count(*) AS n FROM potatoq_dead GROUP BY queue ORDER BY n DESC LIMIT 1').get() as {
      queue: string;
    });
    const ids = db.prepare('SELECT id FROM potatoq_dead WHERE queue = ? ORDER BY id').pluck().all(queue) as string[];
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const now = Date.now() / 1000;
    const set = db.prepare('UPDATE potatoq_dead SET died_at = ? WHERE id = ?');
    ids.forEach((id, i) => set.run(i % 2 ? now - 7200 - i : now - 300 - i, id));
    young = ids.filter((_, i) => i % 2 === 0).sort();
    old = ids.filter((_, i) => i % 2 === 1).sort();
  } finally {
    db.close();
  }
});
test.afterAll(async () => c?.stop());

test('filters the dead letters to the last 15 minutes, exports them, and a saved view reopens the same range', async ({ page }) => {
  test.setTimeout(90_000);
  const shown = async () =>
    (await page.getByTestId('dead-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''))).sort();
  await page.goto(`${c.url}/brokers/main/dead?queue=${encodeURIComponent(queue)}`);
  await expect(page.getByTestId('dead-row')).toHaveCount(young.length + old.length);
  const grouped = (n: number) => `${n} letter${n === 1 ? '' : 's'} in `;
  await expect(page.getByTestId('dead-groups-total')).toContainText(grouped(young.length + old.length));

  await page.getByTestId('range-15m').click();
  await expect(page).toHaveURL(/[?&]since=15m(&|$)/);
  await expect(page.getByTestId('range-15m')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('dead-range-words')).toHaveText('died in the last 15m');
  await expect(page.getByTestId('dead-row')).toHaveCount(young.length);
  expect(await shown()).toEqual(young);
  // The queue filter kept the range: a search keeps it too.
  await expect(page.getByTestId('filter-queue')).toHaveValue(queue);
  // The groups and the chart beside the list follow the same range.
  await expect(page.getByTestId('dead-groups-range')).toHaveText('died in the last 15m');
  await expect(page.getByTestId('dead-groups-total')).toContainText(grouped(young.length));
  await expect(page.getByTestId('dead-trends-range')).toHaveText("Over the list's range: died in the last 15m");
  await expect(page.getByTestId('dead-trends').getByTestId('trend-dead')).toContainText('(per minute)');
  const trend = (await (
    await page.request.get(`${c.url}/api/brokers/main/trends/dead?queue=${encodeURIComponent(queue)}&since=15m`)
  ).json()) as {
    range: string;
    from: string;
    to: string;
  };
  expect(trend.range).toBe('hour');
  expect(Date.parse(trend.to) - Date.parse(trend.from)).toBeLessThanOrEqual(17 * 60_000);
  const [groupsFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('dead-groups-card').getByTestId('export-csv').first().click(),
  ]);
  const groupRows = csvObjects(fs.readFileSync((await groupsFile.path())!, 'utf8'));
  expect(groupRows.reduce((n, r) => n + Number(r.count), 0)).toBe(young.length);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('dead-list-card').getByTestId('export-csv').click(),
  ]);
  const rows = csvObjects(fs.readFileSync((await download.path())!, 'utf8'));
  expect(rows.map((r) => r.id).sort()).toEqual(young);
  // The audit trail records the range as the instants the export read.
  const audit = (await (await page.request.get(`${c.url}/api/audit?action=export&broker=main`)).json()) as {
    entries: Array<{ filter: Record<string, unknown> }>;
  };
  expect(audit.entries[0]?.filter).toMatchObject({ queue, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });

  await page.getByTestId('saved-view-new').click();
  await page.getByTestId('saved-view-name').fill('Just died');
  await page.getByTestId('saved-view-description').fill('letters of the last quarter hour');
  await page.getByTestId('saved-view-save').click();
  await expect(page.getByTestId('saved-view-link')).toHaveText('Just died');

  await page.goto(`${c.url}/brokers/main/dead`);
  await expect(page.getByTestId('range-any')).toHaveAttribute('aria-current', 'true');
  await page.getByTestId('saved-view-link').click();
  await expect(page).toHaveURL(/[?&]since=15m(&|$)/);
  await expect(page.getByTestId('saved-view-open-description')).toHaveText('letters of the last quarter hour');
  await expect(page.getByTestId('dead-row')).toHaveCount(young.length);
  expect(await shown()).toEqual(young);

  // A bound that names no time is said under the control, and the list refuses it by name.
  await page.goto(`${c.url}/brokers/main/dead?queue=${encodeURIComponent(queue)}&since=yesterday`);
  await expect(page.getByTestId('range-error')).toContainText('since: "yesterday" is not a time');
  const bad = await page.request.get(`${c.url}/api/brokers/main/dead?since=yesterday`);
  expect(bad.status()).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain('since');

  // The results list of potatoq has no time range: its reason stands where the control would.
  await page.goto(`${c.url}/brokers/main/results`);
  await expect(page.getByTestId('range-unavailable')).toHaveText(
    "Finished: no time range here: potatoq keeps a result's finish time inside its stored record, with no column or index to filter on",
  );
  expect((await page.request.get(`${c.url}/api/brokers/main/results?since=1h`)).status()).toBe(501);
});
