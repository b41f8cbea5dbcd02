import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { seedDemoDatabase } from '../lib/demo/seed';
import { guardPage } from './helpers';
import { SECRETS, scryptHash, startConsole, type RunningConsole } from './auth-server';

// The small truths of issue 12 item 6, on a console with accounts and two copies of the demo
// broker (one configured read-only): unknown API paths answer JSON, tabs name their page, a
// viewer on Enqueue is told "Forbidden", and a blocked queue's "Revoke it to unblock" is only
// offered where revoking is possible.

test.describe.configure({ mode: 'serial' });
let c: RunningConsole;
let dir: string;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-flows-e2e-'));
  const files = ['rw', 'ro'].map((n) => {
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
    POTATOQ_CONSOLE_AUTH: 'accounts',
    POTATOQ_CONSOLE_SESSION_SECRET: SECRETS.sessionSecret,
    POTATOQ_CONSOLE_USERS: JSON.stringify([
      { user: 'olga', hash: scryptHash(SECRETS.operatorPassword), role: 'operator' },
      { user: 'vic', hash: scryptHash(SECRETS.viewerPassword), role: 'viewer' },
    ]),
    POTATOQ_CONSOLE_BROKERS: JSON.stringify([
      { id: 'rw', name: 'Writable', url: `sqlite:///${files[0]}` },
      { id: 'ro', name: 'Read-only', url: `sqlite:///${files[1]}`, readOnly: true },
    ]),
  });
});
test.afterAll(async () => {
  await c?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function signIn(page: Page, user: string, password: string) {
  await page.goto(`${c.url}/`);
  await page.getByTestId('login-user').fill(user);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('account-user')).toHaveText(user);
}

test('unknown /api paths answer the JSON error format, signed in or not', async ({ page }) => {
  const anon = await page.request.get(`${c.url}/api/no-such-thing`);
  expect(anon.status()).toBe(401);
  expect(anon.headers()['content-type']).toContain('application/json');
  await signIn(page, 'olga', SECRETS.operatorPassword);
  for (const [method, p] of [
    ['GET', '/api/no-such-thing'],
    ['GET', '/api/brokers/rw/no-such-thing'],
    ['POST', '/api/brokers/rw/queues/default/no-such-action'],
  ] as const) {
    const r = await page.request.fetch(`${c.url}${p}`, { method, headers: { origin: c.url } });
    expect(r.status(), `${method} ${p}`).toBe(404);
    expect(r.headers()['content-type']).toContain('application/json');
    expect(await r.json()).toEqual({ error: { code: 'NotFound', message: `no API endpoint ${method} ${p} (see docs/api.md)` } });
  }
  // Real routes still answer.
  expect((await page.request.get(`${c.url}/api/brokers/rw/workers`)).status()).toBe(200);
});

test('tab titles name the page (and the broker)', async ({ page }) => {
  await signIn(page, 'olga', SECRETS.operatorPassword);
  const titles: Array<[string, string]> = [
    ['/', 'Overview'],
    ['/brokers/rw', 'Queues · rw'],
    ['/brokers/rw/queues/emails', 'Queue emails · rw'],
    ['/brokers/rw/dead', 'Dead letters · rw'],
    ['/brokers/rw/workers', 'Workers · rw'],
    ['/brokers/rw/results', 'Results · rw'],
    ['/brokers/rw/enqueue', 'Enqueue · rw'],
    ['/audit', 'Audit trail'],
    ['/find?id=x', 'Find by id'],
  ];
  for (const [p, title] of titles) {
    await page.goto(`${c.url}${p}`);
    await expect(page, p).toHaveTitle(`${title} · potatoq console`);
  }
});

test('a viewer on Enqueue is told Forbidden, an operator on a read-only broker ReadOnly, never Unsupported', async ({ page }) => {
  const { pageErrors } = guardPage(page);
  await signIn(page, 'vic', SECRETS.viewerPassword);
  await page.goto(`${c.url}/brokers/rw/enqueue`);
  await expect(page.getByTestId('error-code')).toHaveText('Forbidden');
  await expect(page.getByTestId('error-message')).toHaveText('vic is a viewer');
  await page.screenshot({ path: 'test-results/flows-viewer-enqueue.png' });
  expect(pageErrors).toEqual([]);
  const op = await (await page.context().browser()!.newContext()).newPage();
  await op.goto(`${c.url}/brokers/ro/enqueue`);
  await op.getByTestId('login-user').fill('olga');
  await op.getByTestId('login-password').fill(SECRETS.operatorPassword);
  await op.getByTestId('login-submit').click();
  await expect(op.getByTestId('error-code')).toHaveText('ReadOnly');
  await expect(op.getByTestId('error-message')).toHaveText('configured read-only');
  await op.context().close();
});

test('"Revoke it to unblock" is offered only where the console can revoke', async ({ page, browser }) => {
  await signIn(page, 'olga', SECRETS.operatorPassword);
  await page.goto(`${c.url}/`);
  const advice = (b: string) => page.locator(`[data-broker="${b}"]`).getByTestId('queue-blocked-advice');
  await expect(advice('rw')).toHaveText('Revoke it to unblock the queue.');
  await expect(advice('ro')).toHaveText('Revoke it to unblock the queue: the console cannot here (configured read-only).');
  await page.screenshot({ path: 'test-results/flows-blocked-advice.png', fullPage: true });

  const viewer = await (await browser.newContext()).newPage();
  await viewer.goto(`${c.url}/`);
  await viewer.getByTestId('login-user').fill('vic');
  await viewer.getByTestId('login-password').fill(SECRETS.viewerPassword);
  await viewer.getByTestId('login-submit').click();
  await expect(viewer.locator('[data-broker="rw"]').getByTestId('queue-blocked-advice')).toHaveText(
    'Revoke it to unblock the queue: the console cannot here (vic is a viewer).',
  );
  await viewer.context().close();
});
