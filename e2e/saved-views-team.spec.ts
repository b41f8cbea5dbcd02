import fs from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { csvObjects, jsonLines } from '../tests/support/csv';
import { SECRETS, scryptHash, startConsole, type RunningConsole } from './auth-server';

// Team saved views and list exports end to end, on a console of its own with two accounts: an
// operator saves a filtered view for the team (a clash is said under the name, then replaced), a
// viewer on another browser sees it, opens it by its link, cannot remove it; the operator edits it
// in place (a bad link said under its field; a second editor working from the older copy is told
// and keeps what they typed), audited before and after; the operator exports a queue's ready
// tasks and the download holds exactly the broker's rows, audited; a viewer exports the
// dead-letter groups, one group's letters from its row, and the workers.

test.describe.configure({ mode: 'serial' });

let c: RunningConsole;

test.beforeAll(async () => {
  c = await startConsole({
    POTATOQ_CONSOLE_AUTH: 'accounts',
    POTATOQ_CONSOLE_SESSION_SECRET: SECRETS.sessionSecret,
    POTATOQ_CONSOLE_USERS: JSON.stringify([
      { user: 'olga', hash: scryptHash(SECRETS.operatorPassword), role: 'operator' },
      { user: 'vic', hash: scryptHash(SECRETS.viewerPassword), role: 'viewer' },
    ]),
  });
});
test.afterAll(async () => c?.stop());

async function signedIn(browser: Browser, user: string, password: string, next: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${c.url}${next}`);
  await page.getByTestId('login-user').fill(user);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('account-user')).toHaveText(user);
  return page;
}

/** The broker's busiest queue by state (potatoq's SQLite: 1 ready), read from the broker itself. */
function busiest(table: string, where = '1 = 1'): { queue: string; ids: string[] } {
  const db = new Database(c.broker, { readonly: true });
  try {
    const { queue } = db
      .prepare(`SELECT queue, count(*) AS n FROM ${table} WHERE ${where} GROUP BY queue ORDER BY n DESC LIMIT 1`)
      .get() as { queue: string };
    const ids = db.prepare(`SELECT id FROM ${table} WHERE ${where} AND queue = ?`).pluck().all(queue) as string[];
    return { queue, ids: ids.sort() };
  } finally {
    db.close();
  }
}

/** Every id of a table of the broker, sorted. */
function idsOf(table: string): string[] {
  const db = new Database(c.broker, { readonly: true });
  try {
    return (db.prepare(`SELECT id FROM ${table}`).pluck().all() as string[]).sort();
  } finally {
    db.close();
  }
}

test('an operator saves a team view; a viewer sees it, opens it by its link, and cannot remove it', async ({ browser }) => {
  test.setTimeout(90_000);
  const { queue } = busiest('potatoq_dead');
  const name = `Team: ${queue}`;
  const olga = await signedIn(browser, 'olga', SECRETS.operatorPassword, `/brokers/main/dead?queue=${encodeURIComponent(queue)}`);
  await expect(olga.getByTestId('filter-queue')).toHaveValue(queue);
  const saveAs = async (n: string) => {
    await olga.getByTestId('saved-view-new').click();
    await olga.getByTestId('saved-view-name').fill(n);
    await olga.getByTestId('saved-view-scope').selectOption('team');
    await olga.getByTestId('saved-view-save').click();
  };
  await saveAs(name);
  await expect(olga.getByTestId('team-view-link')).toHaveText(name);
  await expect(olga.getByTestId('saved-view')).toHaveCount(0); // kept for the team, not in this browser

  // The same name again: said under the name, and replaced only when asked.
  await saveAs(name);
  await expect(olga.getByTestId('saved-view-problem')).toContainText(`a team view named "${name}" already exists (saved by olga)`);
  await olga.getByTestId('saved-view-replace').click();
  await expect(olga.getByTestId('saved-view-problem')).toHaveCount(0);
  await expect(olga.getByTestId('team-view-link')).toHaveCount(1);

  const vic = await signedIn(browser, 'vic', SECRETS.viewerPassword, '/brokers/main/dead');
  await expect(vic.getByTestId('filter-queue')).toHaveValue('');
  await vic.getByTestId('team-view-link').click();
  await expect(vic).toHaveURL(new RegExp(`/brokers/main/dead\\?queue=${encodeURIComponent(queue)}$`));
  await expect(vic.getByTestId('filter-queue')).toHaveValue(queue);

  // The view's own link, as shared in a chat: opens the list with the view's filter.
  await vic.goto(`${c.url}/brokers/main/views/${encodeURIComponent(name)}`);
  await expect(vic).toHaveURL(new RegExp(`/brokers/main/dead\\?queue=${encodeURIComponent(queue)}$`));
  await expect(vic.getByTestId('filter-queue')).toHaveValue(queue);

  await vic.getByRole('button', { name: `Remove team view ${name}` }).click();
  await expect(vic.getByTestId('team-view-problem')).toContainText('vic is a viewer and may not view-remove');
  await vic.reload();
  await expect(vic.getByTestId('team-view-link')).toHaveText(name);

  const audit = (await (await olga.request.get(`${c.url}/api/audit?broker=main&action=view-save`)).json()) as {
    entries: Array<{ who: string; outcome: string; details: Record<string, unknown> }>;
  };
  expect(audit.entries.map((e) => [e.who, e.outcome, e.details.replaced])).toEqual([
    ['olga', 'done', true],
    ['olga', 'failed', undefined], // the clash: recorded, nothing saved
    ['olga', 'done', false],
  ]);

  // A link that is no list of this broker is refused with the field named; nothing is stored.
  const bad = await olga.request.post(`${c.url}/api/brokers/main/views`, {
    data: { name: 'elsewhere', href: 'https://example.com/brokers/main/dead' },
    headers: { origin: c.url },
  });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { fields: Record<string, string> } }).error.fields.href).toMatch(/path of this console/);
});

test('an operator edits a team view in place; an edit from an older copy is refused, nothing lost', async ({ browser }) => {
  test.setTimeout(90_000);
  const { queue } = busiest('potatoq_dead');
  const name = `Team: ${queue}`;
  const list = `/brokers/main/dead?queue=${encodeURIComponent(queue)}`;
  const olga = await signedIn(browser, 'olga', SECRETS.operatorPassword, list);
  // The same operator in a second browser opens the same view for editing first.
  const other = await signedIn(browser, 'olga', SECRETS.operatorPassword, list);
  await other.getByRole('button', { name: `Edit team view ${name}` }).click();
  await expect(other.getByTestId('team-view-edit-newName')).toHaveValue(name);

  await olga.getByRole('button', { name: `Edit team view ${name}` }).click();
  const editor = olga.getByTestId('team-view-editor');
  await editor.getByTestId('team-view-edit-href').fill('https://example.com/brokers/main/dead');
  await editor.getByTestId('team-view-edit-save').click();
  await expect(editor.getByTestId('team-view-edit-error-href')).toContainText('path of this console');
  const href = `${list}&q=declined`;
  const about = 'Card declines on the mail queue';
  await editor.getByTestId('team-view-edit-href').fill(href);
  await editor.getByTestId('team-view-edit-description').fill(about);
  await editor.getByTestId('team-view-edit-save').click();
  await expect(olga.getByTestId('team-view-editor')).toHaveCount(0);
  await expect(olga.getByTestId('team-view-link')).toHaveAttribute('title', `${about} · saved by olga, last edited by olga`);
  await olga.getByTestId('team-view-link').click();
  await expect(olga).toHaveURL(new RegExp(`${href.replace(/[?]/g, '\\?')}$`));

  // The second editor still has the copy from before: told, and what they typed stays.
  await other.getByTestId('team-view-edit-description').fill('typed from the old copy');
  await other.getByTestId('team-view-edit-save').click();
  await expect(other.getByTestId('team-view-edit-problem')).toContainText(
    `the view "${name}" was changed by olga after you opened it; nothing was saved`,
  );
  await expect(other.getByTestId('team-view-edit-description')).toHaveValue('typed from the old copy');
  await other.getByTestId('team-view-edit-reload').click();
  await expect(other.getByTestId('team-view-edit-href')).toHaveValue(href);
  await expect(other.getByTestId('team-view-edit-description')).toHaveValue(about);

  // Renamed in place: the same view under its new name.
  const renamed = `${name} (declines)`;
  await olga.getByRole('button', { name: `Edit team view ${name}` }).click();
  await olga.getByTestId('team-view-edit-newName').fill(renamed);
  await olga.getByTestId('team-view-edit-save').click();
  await expect(olga.getByTestId('team-view-link')).toHaveText(renamed);

  // In the state store every console shares: each edit once, the stale one not at all.
  const views = (await (await olga.request.get(`${c.url}/api/brokers/main/views`)).json()) as {
    views: Array<{ name: string; href: string; description: string; version: number; updatedBy: string | null }>;
  };
  expect(views.views).toEqual([expect.objectContaining({ name: renamed, href, description: about, version: 4, updatedBy: 'olga' })]);
  const audit = (await (await olga.request.get(`${c.url}/api/audit?broker=main&action=view-edit`)).json()) as {
    entries: Array<{ outcome: string; details: Record<string, unknown> }>;
  };
  // The stale edit is recorded as failed; the refused link was never stored (a 400 before anything ran).
  expect(audit.entries.map((e) => e.outcome)).toEqual(['done', 'failed', 'done']);
  expect(audit.entries[2]!.details).toMatchObject({
    view: name,
    before: { name, href: list, description: '' },
    after: { name, href, description: about },
  });
  expect(audit.entries[0]!.details).toMatchObject({ before: { name }, after: { name: renamed, href, description: about } });
});

test("a queue's ready tasks export downloads exactly the broker's rows, audited", async ({ browser }) => {
  const { queue, ids } = busiest('potatoq_jobs', 'state = 1');
  const olga = await signedIn(browser, 'olga', SECRETS.operatorPassword, `/brokers/main/queues/${encodeURIComponent(queue)}?state=ready`);
  const [download] = await Promise.all([olga.waitForEvent('download'), olga.getByTestId('export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^tasks-main-\d{8}T\d{6}\.csv$/);
  const rows = csvObjects(fs.readFileSync((await download.path())!, 'utf8'));
  expect(rows.map((r) => r.id).sort()).toEqual(ids);
  expect(rows.every((r) => r.queue === queue && r.state === 'ready')).toBe(true);
  const audit = (await (await olga.request.get(`${c.url}/api/audit?action=export&broker=main`)).json()) as {
    entries: Array<{ who: string; count: number; filter: Record<string, unknown> }>;
  };
  expect(audit.entries[0]).toMatchObject({
    who: 'olga',
    count: ids.length,
    filter: { list: 'tasks', state: 'ready', queue, format: 'csv' },
  });
});

test("a viewer exports the groups, one group's letters from its row, and the workers", async ({ browser }) => {
  const vic = await signedIn(browser, 'vic', SECRETS.viewerPassword, '/brokers/main/dead');
  const download = async (link: Locator) => {
    const [d] = await Promise.all([vic.waitForEvent('download'), link.click()]);
    return { name: d.suggestedFilename(), text: fs.readFileSync((await d.path())!, 'utf8') };
  };
  const groupsCard = vic.getByTestId('dead-groups-card');
  const firstRow = groupsCard.getByTestId('dead-group').first();
  await expect(firstRow).toBeVisible();
  const all = await download(groupsCard.getByTestId('dead-groups-total').locator('..').getByTestId('export-csv'));
  expect(all.name).toMatch(/^dead-groups-main-\d{8}T\d{6}\.csv$/);
  const groups = csvObjects(all.text);
  const deadIds = new Set(idsOf('potatoq_dead'));
  expect(groups.reduce((n, g) => n + Number(g.count), 0)).toBe(deadIds.size);
  const fp = (await firstRow.getAttribute('data-fingerprint'))!;
  const count = Number(await firstRow.getByTestId('dead-group-count').textContent());
  expect(groups.find((g) => g.fingerprint === fp)?.count).toBe(String(count));

  const one = await download(firstRow.getByTestId('export-jsonl'));
  expect(one.name).toMatch(/^dead-main-\d{8}T\d{6}\.jsonl$/);
  const letters = jsonLines(one.text);
  expect(letters).toHaveLength(count);
  expect(letters.every((l) => deadIds.has(String(l.id)))).toBe(true);

  await vic.goto(`${c.url}/brokers/main/workers`);
  const workers = await download(vic.getByTestId('export-jsonl'));
  expect(workers.name).toMatch(/^workers-main-\d{8}T\d{6}\.jsonl$/);
  expect(
    jsonLines(workers.text)
      .map((w) => w.id)
      .sort(),
  ).toEqual(idsOf('potatoq_workers'));
});
