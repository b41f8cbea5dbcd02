import { expect, test } from '@playwright/test';
import { guardPage } from './helpers';
import { addDead, addTask, uniqueQueue } from './seed';
import { SECRETS, startConsole } from './auth-server';

// Mode none off loopback and trusted-proxy mode, each on a console of its own (each on a free port).

test('mode none refuses to start on a non-loopback address, naming the setting', async () => {
  const c = await startConsole({}, { host: '0.0.0.0', expectExit: true });
  expect(await c.exited).toBe(1);
  expect(c.output()).toMatch(/bad configuration: POTATOQ_CONSOLE_AUTH: authentication is off .* 0\.0\.0\.0/);
  await c.stop();
});

test('mode none off loopback with the insecure flag starts and shows a banner on every page', async ({ page }) => {
  const c = await startConsole({ POTATOQ_CONSOLE_INSECURE_NO_AUTH: '1' }, { host: '0.0.0.0' });
  try {
    await page.goto(`${c.url}/`);
    await expect(page.getByTestId('insecure-banner')).toContainText('Authentication is off');
    await page.goto(`${c.url}/audit`);
    await expect(page.getByTestId('insecure-banner')).toBeVisible();
  } finally {
    await c.stop();
  }
});

test('proxy mode takes the user and groups only with the shared secret', async ({ browser, playwright }) => {
  const c = await startConsole({
    POTATOQ_CONSOLE_AUTH: 'proxy',
    POTATOQ_CONSOLE_PROXY_SECRET: SECRETS.proxySecret,
    POTATOQ_CONSOLE_PROXY_ROLES: JSON.stringify({ ops: 'operator', '*': 'viewer' }),
  });
  try {
    const forged = await playwright.request.newContext({
      extraHTTPHeaders: { 'x-forwarded-user': 'mallory', 'x-forwarded-groups': 'ops' },
    });
    expect((await forged.get(`${c.url}/api/brokers`)).status()).toBe(401);
    expect((await forged.get(`${c.url}/`)).status()).toBe(401);
    await forged.dispose();

    const ctx = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-user': 'ann', 'x-forwarded-groups': 'dev,ops', 'x-potatoq-proxy-secret': SECRETS.proxySecret },
    });
    const page = await ctx.newPage();
    const { pageErrors } = guardPage(page);
    await page.goto(`${c.url}/`);
    await expect(page.getByTestId('account-user')).toHaveText('ann');
    await expect(page.getByTestId('account-role')).toHaveText('operator');
    await expect(page.getByTestId('sign-out')).toHaveCount(0); // the proxy owns the session
    expect(pageErrors).toEqual([]);
    await ctx.close();

    const viewer = await playwright.request.newContext({
      extraHTTPHeaders: { 'x-forwarded-user': 'bob', 'x-potatoq-proxy-secret': SECRETS.proxySecret },
    });
    const r = await viewer.post(`${c.url}/api/brokers/main/dead/replay`, { data: { ids: ['x'] } });
    expect(r.status()).toBe(403);
    await viewer.dispose();
  } finally {
    await c.stop();
  }
});

test('proxy mode trusts the configured proxy address (the socket’s, not X-Forwarded-For)', async ({ playwright }) => {
  const trusted = await startConsole({ POTATOQ_CONSOLE_AUTH: 'proxy', POTATOQ_CONSOLE_PROXY_ADDRESSES: '127.0.0.1, ::1' });
  const other = await startConsole({ POTATOQ_CONSOLE_AUTH: 'proxy', POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.9.9.9' });
  try {
    const r = await playwright.request.newContext({
      extraHTTPHeaders: { 'x-forwarded-user': 'ann', 'x-forwarded-for': '10.9.9.9', 'x-potatoq-peer': 'forged 10.9.9.9' },
    });
    expect((await r.get(`${trusted.url}/api/brokers`)).status()).toBe(200);
    expect((await r.get(`${other.url}/api/brokers`)).status()).toBe(401);
    await r.dispose();
  } finally {
    await Promise.all([trusted.stop(), other.stop()]);
  }
});

test('pages carry a nonce CSP that blocks injected inline scripts, and no-frame/nosniff headers', async ({ page }) => {
  const c = await startConsole({});
  try {
    const res = await page.goto(`${c.url}/brokers/main`);
    const h = res!.headers();
    expect(h['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(h['content-security-policy']).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['referrer-policy']).toBe('same-origin');
    await expect(page.getByTestId('nav-dead')).toBeVisible(); // the app's own scripts ran (hydrated links)
    // The XSS that matters: markup with an inline handler reaching the DOM. CSP must block it.
    const outcome = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
      const div = document.createElement('div');
      div.innerHTML = '<img src="/nope.png" onerror="window.__injected = 1">';
      document.body.appendChild(div);
      await new Promise((r) => setTimeout(r, 500));
      return { injected: (window as unknown as { __injected?: number }).__injected ?? null, violations };
    });
    expect(outcome.injected).toBeNull();
    expect(outcome.violations.join(' ')).toMatch(/script-src/);
  } finally {
    await c.stop();
  }
});

test('with argument redaction, lists and details hide values until an operator reveals them, and the reveal is audited', async ({
  page,
}) => {
  const c = await startConsole({ POTATOQ_CONSOLE_REDACT_ARGS: '1' });
  try {
    const queue = uniqueQueue('redact');
    const id = addTask(c.broker, { queue, args: ['card-4111-secret-arg'] });
    const { pageErrors } = guardPage(page);
    await page.goto(`${c.url}/brokers/main/queues/${queue}`);
    await expect(page.getByTestId('task-table')).toContainText('‹arguments hidden›');
    await expect(page.getByTestId('task-table')).not.toContainText('card-4111-secret-arg');
    const api = await page.request.get(`${c.url}/api/brokers/main/tasks/${id}`);
    expect(await api.text()).not.toContain('card-4111-secret-arg');
    // Search can't be used to guess hidden values: refused on tasks, reasons only on letters.
    const guess = await page.request.get(`${c.url}/api/brokers/main/tasks?queue=${queue}&q=4111`);
    expect(guess.status()).toBe(400);
    expect((await guess.json()).error.code).toBe('InvalidInput');
    const letter = addDead(c.broker, { queue, args: ['card-4111-secret-arg'], reason: 'ValueError: card declined' });
    const dead = (q: string) => page.request.get(`${c.url}/api/brokers/main/dead?queue=${queue}&q=${q}&qIn=all`).then((r) => r.json());
    expect((await dead('4111')).items).toEqual([]);
    expect((await dead('declined')).items.map((d: { id: string }) => d.id)).toEqual([letter]);
    await page.goto(`${c.url}/brokers/main/queues/${queue}?q=4111`);
    await expect(page.getByTestId('filter-q')).toHaveCount(0);
    await expect(page.getByTestId('task-row')).toHaveCount(1); // the search is dropped, not applied

    await page.goto(`${c.url}/brokers/main/jobs/${id}`);
    await expect(page.getByTestId('payload-section')).toContainText('‹arguments hidden›');
    await expect(page.locator('body')).not.toContainText('card-4111-secret-arg');
    await page.getByTestId('reveal-args').click();
    await expect(page.getByTestId('revealed')).toContainText('card-4111-secret-arg');

    await page.goto(`${c.url}/audit?action=reveal`);
    await expect(page.getByTestId('audit-row')).toHaveCount(1);
    await expect(page.getByTestId('audit-id')).toContainText(id);
    expect(pageErrors).toEqual([]);
  } finally {
    await c.stop();
  }
});
