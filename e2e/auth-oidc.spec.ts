import { expect, test, type BrowserContext, type Cookie, type Page } from '@playwright/test';
import { freePort } from '../tests/support/free-port';
import { SECRETS, startConsole, type RunningConsole } from './auth-server';
import { startOidcProvider, type RunningProvider } from './oidc-provider';
import { addTask, job, uniqueQueue } from './seed';

// Mode oidc end to end: a real OpenID provider (oidc-provider, in a child process) and a real
// production console signed in through the provider's own login and consent pages; a forged
// state, a replayed code, an expired ID token (from a provider whose clock is 10 minutes
// behind) and users whose groups map to no role are all refused without a session.

test.describe.configure({ mode: 'serial' });

const CLIENT_SECRET = 'e2e-oidc-client-secret-3c9a71f0';
const ROLES = JSON.stringify({ ops: 'operator', staff: 'viewer' });
const ACCOUNTS = {
  olga: { preferred_username: 'olga', email: 'olga@example.test', groups: ['ops', 'staff'] },
  vic: { preferred_username: 'vic', email: 'vic@example.test', groups: ['staff'] },
  carl: { preferred_username: 'carl', groups: ['contractors'] },
  // Names an ordinary object would find on its prototype: they grant nothing.
  proto: { preferred_username: 'proto', groups: ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] },
  // Another account (subject) at the provider that calls itself olga, and one that calls itself
  // like the console's API token `ci`.
  'olga-2': { preferred_username: 'olga', groups: ['ops'] },
  mallory: { preferred_username: 'token:ci', groups: ['ops'] },
};

let idp: RunningProvider;
let c: RunningConsole;

function consoleEnv(issuer: string, port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    POTATOQ_CONSOLE_AUTH: 'oidc',
    POTATOQ_CONSOLE_SESSION_SECRET: SECRETS.sessionSecret,
    POTATOQ_CONSOLE_OIDC_ISSUER: issuer,
    POTATOQ_CONSOLE_OIDC_CLIENT_ID: 'potatoq-console',
    POTATOQ_CONSOLE_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    POTATOQ_CONSOLE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    POTATOQ_CONSOLE_OIDC_SCOPES: 'openid profile email groups',
    POTATOQ_CONSOLE_OIDC_ROLES: ROLES,
    POTATOQ_CONSOLE_OIDC_NAME: 'Test IdP',
    ...extra,
  };
}

test.beforeAll(async () => {
  const port = await freePort();
  idp = await startOidcProvider({
    clients: [
      {
        client_id: 'potatoq-console',
        client_secret: CLIENT_SECRET,
        redirect_uris: [`http://127.0.0.1:${port}/api/auth/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    accounts: ACCOUNTS,
  });
  c = await startConsole(consoleEnv(idp.issuer, port), { port });
});
test.afterAll(async () => {
  await c?.stop();
  await idp?.stop();
});

const session = async (context: BrowserContext) => (await context.cookies()).find((k) => k.name === 'potatoq_session');

/** The provider's pages import a web font; there is no network to fetch it from. */
async function offline(context: BrowserContext) {
  await context.route(/^https:\/\/fonts\./, (r) => r.abort());
}

/** From the console's login page through the provider's login page, to its consent page. */
async function toConsent(page: Page, base: string, login: string, next = '/') {
  await offline(page.context());
  await page.goto(`${base}${next}`);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('oidc-sign-in')).toHaveText('Sign in with Test IdP');
  await page.getByTestId('oidc-sign-in').click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password: the provider’s development login');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
}

async function throughProvider(page: Page, base: string, login: string, next = '/') {
  await toConsent(page, base, login, next);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Signs in up to the provider's redirect back, with the flow cookie taken out of the browser
 * first: the console refuses that callback before it uses the code (which the test checks),
 * so the code is still fresh. Returns the callback URL and the flow cookie, put back.
 * (Playwright cannot intercept a redirect, and the callback is one.)
 */
async function captureCallback(page: Page, base: string, login: string): Promise<{ url: string; flow: Cookie }> {
  await toConsent(page, base, login);
  const flow = (await page.context().cookies()).find((k) => k.name === 'potatoq_oidc');
  expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc' });
  await page.context().clearCookies({ name: 'potatoq_oidc' });
  const callback = page.waitForRequest((r) => r.url().startsWith(`${base}/api/auth/oidc/callback`));
  await page.getByRole('button', { name: 'Continue' }).click();
  const url = (await callback).url();
  expect(url).toMatch(/[?&]code=/);
  await expect(page.getByTestId('oidc-refusal')).toContainText('not started in this browser');
  expect(await session(page.context())).toBeUndefined();
  await page.context().addCookies([flow!]);
  return { url, flow: flow! };
}

test('a bad oidc setting stops startup naming the variable', async () => {
  const bad = await startConsole(consoleEnv('http://127.0.0.1:9', 1, { POTATOQ_CONSOLE_OIDC_ROLES: '' }), { expectExit: true });
  expect(await bad.exited).toBe(1);
  expect(bad.output()).toMatch(/POTATOQ_CONSOLE_OIDC_ROLES: required in oidc mode/);
  await bad.stop();
});

test('the redirect URL comes from the settings, whatever Host the request names; an unreachable provider gives 502', async ({
  playwright,
}) => {
  const api = await playwright.request.newContext();
  const r = await api.get(`${c.url}/api/auth/oidc/start?next=/audit`, {
    headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    maxRedirects: 0,
  });
  expect(r.status()).toBe(303);
  const to = new URL(r.headers()['location']!);
  expect(`${to.origin}${to.pathname}`).toBe(`${idp.issuer}/auth`);
  expect(to.searchParams.get('redirect_uri')).toBe(`${c.url}/api/auth/oidc/callback`);
  expect(r.headers()['set-cookie']).toMatch(/^potatoq_oidc=[^;]+; Path=\/api\/auth\/oidc; HttpOnly; SameSite=Lax; Max-Age=600/);

  const port = await freePort();
  const down = await startConsole(consoleEnv(`http://127.0.0.1:${await freePort()}`, port), { port });
  try {
    const none = await api.get(`${down.url}/api/auth/oidc/start`, { maxRedirects: 0 });
    expect(none.status()).toBe(502);
    expect(await none.text()).toContain('Test IdP cannot be reached right now');
  } finally {
    await down.stop();
    await api.dispose();
  }
});

test('an operator signs in through the provider (PKCE, state, nonce), lands on the page asked for, and can act', async ({ page }) => {
  const queue = uniqueQueue('oidc-ops');
  const task = addTask(c.broker, { queue });
  const authorize = page.waitForRequest((r) => r.url().startsWith(`${idp.issuer}/auth?`));
  await throughProvider(page, c.url, 'olga', `/brokers/main/jobs/${task}`);
  const asked = new URL((await authorize).url()).searchParams;
  expect(asked.get('response_type')).toBe('code');
  expect(asked.get('code_challenge_method')).toBe('S256');
  expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  expect(asked.get('state')).toBeTruthy();
  expect(asked.get('nonce')).toBeTruthy();
  expect(asked.get('redirect_uri')).toBe(`${c.url}/api/auth/oidc/callback`);
  expect(asked.toString()).not.toContain(CLIENT_SECRET);

  await expect(page).toHaveURL(`${c.url}/brokers/main/jobs/${task}`);
  await expect(page.getByTestId('account-user')).toHaveText('olga');
  await expect(page.getByTestId('account-role')).toHaveText('operator');
  expect(await session(page.context())).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  expect((await page.context().cookies()).find((k) => k.name === 'potatoq_oidc')).toBeUndefined(); // one callback per sign-in

  await page.getByTestId('action-revoke').click();
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.getByTestId('confirm-reason').fill('OIDC-1 revoke as operator');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  expect(job(c.broker, task)).toBeUndefined();
  const trail = await (await page.request.get(`${c.url}/api/audit?task=${task}`)).json();
  expect(trail.entries[0]).toMatchObject({
    who: 'olga',
    role: 'operator',
    via: 'oidc',
    reason: 'OIDC-1 revoke as operator',
    outcome: 'done',
    subject: 'olga',
    issuer: idp.issuer,
  });
  await page.goto(`${c.url}/audit?task=${task}`);
  await expect(page.getByTestId('audit-subject').first()).toHaveText(`sub olga at ${idp.issuer}`);
  expect(await (await page.request.get(`${c.url}/login`)).text()).not.toContain(CLIENT_SECRET);
});

test('a second subject with the same user name, and a name like an API token, are refused without a session', async ({ browser }) => {
  // olga (subject "olga") signed in first in the test above: the name is hers.
  for (const [login, says] of [
    ['olga-2', 'names you "olga", but that name already belongs to another account'],
    ['mallory', 'names you "token:ci", which the console cannot give a person'],
  ] as const) {
    const context = await browser.newContext();
    const p = await context.newPage();
    const answer = p.waitForResponse((r) => r.url().startsWith(`${c.url}/api/auth/oidc/callback`));
    await throughProvider(p, c.url, login);
    expect((await answer).status(), login).toBe(403);
    await expect(p.getByTestId('oidc-refusal')).toContainText(says);
    await expect(p.getByTestId('oidc-refusal')).toContainText('An administrator can change which claim names users');
    expect(await session(context)).toBeUndefined();
    await context.close();
  }
  expect(c.output()).toMatch(/"why":"name-taken"/);
  expect(c.output()).toMatch(/"why":"reserved-name"/);
});

test('a viewer reads but cannot act; signing out ends the session', async ({ page }) => {
  const queue = uniqueQueue('oidc-viewer');
  const task = addTask(c.broker, { queue });
  await throughProvider(page, c.url, 'vic', `/brokers/main/jobs/${task}`);
  await expect(page.getByTestId('account-role')).toHaveText('viewer');
  await expect(page.getByTestId('detail-id')).toContainText(task);
  await expect(page.getByTestId('action-revoke')).toBeDisabled();
  const forced = await page.request.post(`${c.url}/api/brokers/main/tasks/revoke`, {
    data: { ids: [task], reason: 'viewer tries' },
    headers: { origin: c.url },
  });
  expect(forced.status()).toBe(403);
  expect(job(c.broker, task)).toMatchObject({ state: 1 });

  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(/\/login/);
  expect(await session(page.context())).toBeUndefined();
  await page.goto(`${c.url}/brokers/main/jobs/${task}`);
  await expect(page).toHaveURL(/\/login\?next=/);
});

test('users whose groups map to no role get 403 and no session (prototype names included)', async ({ page, browser }) => {
  for (const login of ['carl', 'proto']) {
    const context = login === 'carl' ? page.context() : await browser.newContext();
    const p = login === 'carl' ? page : await context.newPage();
    const answer = p.waitForResponse((r) => r.url().startsWith(`${c.url}/api/auth/oidc/callback`));
    await throughProvider(p, c.url, login);
    expect((await answer).status()).toBe(403);
    await expect(p.getByTestId('oidc-refusal')).toContainText(`${login} is signed in at Test IdP but is in no group with access`);
    expect(await session(context)).toBeUndefined();
    if (login !== 'carl') await context.close();
  }
  expect((await page.request.get(`${c.url}/api/brokers/main/tasks`)).status()).toBe(401);
});

test('a forged state is refused, and so is a callback in a browser that did not start the sign-in', async ({ page, browser }) => {
  const { url, flow } = await captureCallback(page, c.url, 'olga');
  const forged = new URL(url);
  forged.searchParams.set('state', 'attacker-chosen-state');
  const r = await page.goto(forged.href);
  expect(r?.status()).toBe(400);
  await expect(page.getByTestId('oidc-refusal')).toContainText('state mismatch');
  expect(await session(page.context())).toBeUndefined();

  // The attacker's own callback link opened in the victim's browser (login CSRF): no flow cookie.
  const other = await browser.newContext();
  const victim = await other.newPage();
  expect((await victim.goto(url))?.status()).toBe(400);
  await expect(victim.getByTestId('oidc-refusal')).toContainText('not started in this browser');
  expect(await session(other)).toBeUndefined();
  // A flow cookie signed with another secret is no flow either.
  await other.addCookies([{ ...flow, value: flow.value.replace(/\.[^.]+$/, '.AAAA') }]);
  expect((await victim.goto(url))?.status()).toBe(400);
  expect(await session(other)).toBeUndefined();
  await other.close();
});

test('cancelling at the provider comes back refused, with the provider’s reason and no session', async ({ page }) => {
  await toConsent(page, c.url, 'olga');
  const answer = page.waitForResponse((r) => r.url().startsWith(`${c.url}/api/auth/oidc/callback`));
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  expect((await answer).status()).toBe(401);
  await expect(page.getByTestId('oidc-refusal')).toContainText('Test IdP did not sign you in (access_denied)');
  expect(await session(page.context())).toBeUndefined();
});

test('a replayed authorization code is refused by the provider, and no second session is made', async ({ page, browser }) => {
  const { url, flow } = await captureCallback(page, c.url, 'olga');
  // The real callback, once: signed in.
  await page.goto(url);
  await expect(page.getByTestId('account-user')).toHaveText('olga');
  // The same code and the same flow cookie again, from elsewhere (as an attacker who copied both).
  const other = await browser.newContext();
  await other.addCookies([flow]);
  const replay = await other.newPage();
  const r = await replay.goto(url);
  expect(r?.status()).toBe(400);
  await expect(replay.getByTestId('oidc-refusal')).toContainText('refused the sign-in code: it was already used');
  expect(await session(other)).toBeUndefined();
  await other.close();
  expect(c.output()).toMatch(/"why":"invalid-grant"/);
});

test('a public client (no secret, PKCE only) signs in; an expired ID token (the provider’s clock 10 minutes behind) is refused', async ({
  page,
  browser,
}) => {
  const port = await freePort();
  const late = await startOidcProvider({
    idTokenSeconds: 60,
    clients: [
      {
        client_id: 'public-console',
        token_endpoint_auth_method: 'none',
        redirect_uris: [`http://127.0.0.1:${port}/api/auth/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    accounts: ACCOUNTS,
  });
  const cx = await startConsole(
    consoleEnv(late.issuer, port, { POTATOQ_CONSOLE_OIDC_CLIENT_ID: 'public-console', POTATOQ_CONSOLE_OIDC_CLIENT_SECRET: '' }),
    { port },
  );
  try {
    // On time: the same provider and client sign in.
    await throughProvider(page, cx.url, 'olga');
    await expect(page.getByTestId('account-role')).toHaveText('operator');

    // 10 minutes behind, its 60-second ID tokens are expired when they arrive.
    await late.setSkew(600);
    const context = await browser.newContext();
    const p = await context.newPage();
    const answer = p.waitForResponse((r) => r.url().startsWith(`${cx.url}/api/auth/oidc/callback`));
    await throughProvider(p, cx.url, 'olga');
    expect((await answer).status()).toBe(401);
    await expect(p.getByTestId('oidc-refusal')).toContainText('ID token from Test IdP has expired');
    expect(await session(context)).toBeUndefined();
    expect(cx.output()).toMatch(/"why":"id-token-expired"/);
    await context.close();
  } finally {
    await cx.stop();
    await late.stop();
  }
});
