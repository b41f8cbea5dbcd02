import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { guardPage } from './helpers';
import { addDead, addTask, job, rows, uniqueQueue } from './seed';
import { DIST_DIR, SECRETS, SECRET_BROKER_URL, scryptHash, startConsole, tokenHash, type RunningConsole } from './auth-server';

// Built-in accounts end to end, on a console of its own (on a free port): sign-in, viewer vs
// operator, reasons in the confirm dialogs, the audit page showing this run's actions with
// their reasons, forged and cross-site requests, login throttling, and the secret scan.

test.describe.configure({ mode: 'serial' });

let c: RunningConsole;

test.beforeAll(async () => {
  c = await startConsole({
    POTATOQ_CONSOLE_AUTH: 'accounts',
    POTATOQ_CONSOLE_SESSION_SECRET: SECRETS.sessionSecret,
    POTATOQ_CONSOLE_USERS: JSON.stringify([
      { user: 'olga', hash: scryptHash(SECRETS.operatorPassword), role: 'operator' },
      { user: 'vic', hash: scryptHash(SECRETS.viewerPassword), role: 'viewer' },
      { user: 'thrott', hash: scryptHash('never-used-pw'), role: 'viewer' },
    ]),
    POTATOQ_CONSOLE_TOKENS: JSON.stringify([{ name: 'ci', hash: tokenHash(SECRETS.operatorToken), role: 'operator' }]),
  });
});
test.afterAll(async () => c?.stop());

async function signIn(page: Page, user: string, password: string, next = '/') {
  await page.goto(`${c.url}${next}`);
  await expect(page).toHaveURL(/\/login/);
  await page.getByTestId('login-user').fill(user);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('account-user')).toHaveText(user);
}

test('signed out, pages send you to sign in and APIs answer 401; a wrong password is refused', async ({ page, request }) => {
  const api = await request.get(`${c.url}/api/brokers/main/tasks`);
  expect(api.status()).toBe(401);
  expect((await request.get(`${c.url}/api/health`)).status()).toBe(401); // names brokers: signed in only
  // The liveness probe answers anyone, and says nothing but that the process serves.
  const live = await request.get(`${c.url}/api/health/live`);
  expect(live.status()).toBe(200);
  expect(await live.text()).toBe('{"status":"live"}');
  await page.goto(`${c.url}/brokers/main/dead`);
  await expect(page).toHaveURL(/\/login\?next=%2Fbrokers%2Fmain%2Fdead/);
  await expect(page.getByTestId('broker-switcher')).toHaveCount(0); // no broker names before sign-in
  await page.getByTestId('login-user').fill('olga');
  await page.getByTestId('login-password').fill('wrong');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('wrong user name or password');
  await page.getByTestId('login-user').fill('olga');
  await page.getByTestId('login-password').fill(SECRETS.operatorPassword);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(`${c.url}/brokers/main/dead`);
  const cookie = (await page.context().cookies()).find((k) => k.name === 'potatoq_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 3600);
});

test('a viewer reads but cannot revoke: the button is off, a forced request is refused and audited, the task stays', async ({ page }) => {
  const queue = uniqueQueue('viewer');
  const id = addTask(c.broker, { queue });
  await signIn(page, 'vic', SECRETS.viewerPassword, `/brokers/main/jobs/${id}`);
  await expect(page.getByTestId('account-role')).toHaveText('viewer');
  await expect(page.getByTestId('detail-id')).toContainText(id);
  await expect(page.getByTestId('action-revoke')).toBeDisabled();
  await expect(page.getByTestId('action-revoke')).toHaveAttribute('title', 'vic is a viewer');
  const forced = await page.request.post(`${c.url}/api/brokers/main/tasks/revoke`, {
    data: { ids: [id], reason: 'viewer tries anyway' },
    headers: { origin: c.url },
  });
  expect(forced.status()).toBe(403);
  expect(job(c.broker, id)).toMatchObject({ state: 1 });
  await page.goto(`${c.url}/audit?who=vic`);
  await expect(page.getByTestId('audit-row').first()).toHaveAttribute('data-outcome', 'refused');
});

test('an operator revokes and discards with reasons; the audit page shows both, hostile reason text stays text', async ({ page }) => {
  const queue = uniqueQueue('ops');
  const task = addTask(c.broker, { queue });
  const dead = addDead(c.broker, { queue, reason: 'boom' });
  const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  const { pageErrors } = guardPage(page);
  await signIn(page, 'olga', SECRETS.operatorPassword, `/brokers/main/jobs/${task}`);

  await page.getByTestId('action-revoke').click();
  let dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-submit')).toBeDisabled(); // reason required
  await dialog.getByTestId('confirm-reason').fill('OPS-42 stuck email');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  expect(job(c.broker, task)).toBeUndefined();

  await page.goto(`${c.url}/brokers/main/dead/${dead}`);
  await page.getByTestId('action-discard').click();
  dialog = page.getByTestId('confirm-dialog');
  await dialog.getByTestId('confirm-reason').fill(hostile);
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  expect(rows(c.broker, 'SELECT id FROM potatoq_dead WHERE id = ?', dead)).toEqual([]);

  await page.goto(`${c.url}/audit?queue=${queue}`);
  const audit = page.getByTestId('audit-row');
  await expect(audit).toHaveCount(2);
  await expect(audit.nth(0)).toHaveAttribute('data-action', 'discard');
  await expect(audit.nth(0).getByTestId('audit-reason')).toHaveText(hostile);
  await expect(audit.nth(1).getByTestId('audit-reason')).toHaveText('OPS-42 stuck email');
  await expect(audit.nth(1).getByTestId('audit-who')).toHaveText('olga');
  await expect(audit.nth(1).getByTestId('audit-id')).toContainText(`${task} ok`);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);

  // Deep link: a task's history.
  await audit.nth(1).getByTestId('audit-id').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`task=${task}`));
  await expect(page.getByTestId('audit-row')).toHaveCount(1);
  await page.waitForTimeout(300);
  expect(pageErrors).toEqual([]);
});

test('forged requests never reach the broker: no session, bad token, another origin', async ({ page, playwright }) => {
  const queue = uniqueQueue('forged');
  const id = addTask(c.broker, { queue });
  const body = { ids: [id], reason: 'forged' };
  const anon = await playwright.request.newContext();
  expect((await anon.post(`${c.url}/api/brokers/main/tasks/revoke`, { data: body })).status()).toBe(401);
  expect(
    (await anon.post(`${c.url}/api/brokers/main/tasks/revoke`, { data: body, headers: { authorization: 'Bearer pqc_wrong' } })).status(),
  ).toBe(401);
  await signIn(page, 'olga', SECRETS.operatorPassword);
  const cross = await page.request.post(`${c.url}/api/brokers/main/tasks/revoke`, {
    data: body,
    headers: { origin: 'https://evil.example' },
  });
  expect(cross.status()).toBe(403);
  expect(job(c.broker, id)).toMatchObject({ state: 1 });
  // The same call with the operator token works and is audited as the token.
  const ok = await anon.post(`${c.url}/api/brokers/main/tasks/revoke`, {
    data: { ids: [id], reason: 'token run' },
    headers: { authorization: `Bearer ${SECRETS.operatorToken}` },
  });
  expect(ok.status()).toBe(200);
  expect(job(c.broker, id)).toBeUndefined();
  const trail = await (await page.request.get(`${c.url}/api/audit?task=${id}`)).json();
  expect(trail.entries[0]).toMatchObject({ who: 'token:ci', reason: 'token run', outcome: 'done' });
  await anon.dispose();
});

test('sign-in is throttled after repeated failures', async ({ playwright }) => {
  const r = await playwright.request.newContext();
  const attempt = () => r.post(`${c.url}/api/auth/login`, { data: { user: 'thrott', password: 'nope' } });
  for (let i = 0; i < 5; i++) expect((await attempt()).status()).toBe(401);
  const blocked = await attempt();
  expect(blocked.status()).toBe(429);
  expect(Number(blocked.headers()['retry-after'])).toBeGreaterThan(0);
  await r.dispose();
});

test('no broker URL, password, secret or token appears in responses or the client bundle', async ({ page }) => {
  const needles = [...Object.values(SECRETS), SECRET_BROKER_URL, `sqlite:///${c.broker}`];
  await signIn(page, 'olga', SECRETS.operatorPassword);
  const paths = [
    '/',
    '/brokers/main',
    '/brokers/main/dead',
    '/brokers/secretpg',
    '/brokers/main/enqueue',
    '/audit',
    '/login',
    '/api/brokers',
    '/api/health',
    '/api/brokers/main/queues',
    '/api/brokers/secretpg/queues',
    '/api/brokers/secretpg/tasks',
    '/api/audit',
  ];
  for (const p of paths) {
    const res = await page.request.get(`${c.url}${p}`, { maxRedirects: 0 });
    const text = `${JSON.stringify(res.headers())}\n${await res.text()}`;
    for (const n of needles) expect(text.includes(n), `${p} contains ${n}`).toBe(false);
  }
  // Pages as the browser loads them, including every script chunk.
  const bodies: string[] = [];
  page.on('response', async (r) => void bodies.push(await r.text().catch(() => '')));
  await page.goto(`${c.url}/brokers/secretpg`);
  await page.waitForLoadState('networkidle');
  for (const b of bodies) for (const n of needles) expect(b.includes(n)).toBe(false);
  // The built client bundle.
  const files = fs.readdirSync(path.join(DIST_DIR, 'static'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  expect(files.length).toBeGreaterThan(5);
  for (const f of files) {
    const text = fs.readFileSync(path.join(f.parentPath, f.name), 'utf8');
    for (const n of needles) expect(text.includes(n), `${f.name} contains ${n}`).toBe(false);
  }
});
