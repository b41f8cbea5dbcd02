import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SECRETS, scryptHash, startConsole, type RunningConsole } from './auth-server';

// The doctor page on a console whose sign-in settings come from a config file (the session
// secret from a secret file): operators see a verdict per broker, viewers are refused, and the
// unreachable broker's password is on no page.

test.describe.configure({ mode: 'serial' });

let c: RunningConsole;
let dir: string;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-e2e-'));
  fs.writeFileSync(path.join(dir, 'session-secret'), `${SECRETS.sessionSecret}\n`);
  const config = path.join(dir, 'console.yaml');
  fs.writeFileSync(
    config,
    [
      '# sign-in from the config file',
      'auth:',
      '  mode: accounts',
      `  sessionSecretFile: ${path.join(dir, 'session-secret')}`,
      '  users:',
      `    - { user: olga, hash: "${scryptHash(SECRETS.operatorPassword)}", role: operator }`,
      `    - { user: vic, hash: "${scryptHash(SECRETS.viewerPassword)}", role: viewer }`,
      '',
    ].join('\n'),
  );
  c = await startConsole({ POTATOQ_CONSOLE_CONFIG: config });
});
test.afterAll(async () => {
  await c?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function signIn(page: Page, user: string, password: string) {
  await page.goto(`${c.url}/doctor`);
  await expect(page).toHaveURL(/\/login/);
  await page.getByTestId('login-user').fill(user);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('account-user')).toHaveText(user);
}

test('an operator sees a verdict per broker, and no password', async ({ page }) => {
  await signIn(page, 'olga', SECRETS.operatorPassword);
  await expect(page).toHaveURL(`${c.url}/doctor`);
  const main = page.locator('[data-testid="doctor-broker"][data-broker="main"]');
  await expect(main).toHaveAttribute('data-verdict', 'usable');
  await expect(main.getByTestId('doctor-verdict')).toHaveText('usable');
  await expect(main).toContainText('SQLite');
  const pg = page.locator('[data-testid="doctor-broker"][data-broker="secretpg"]');
  await expect(pg).toHaveAttribute('data-verdict', 'unusable');
  await expect(pg.getByTestId('doctor-why')).not.toBeEmpty();
  expect(await page.content()).not.toContain(SECRETS.brokerPassword);
});

test('a viewer is refused the doctor', async ({ page }) => {
  await signIn(page, 'vic', SECRETS.viewerPassword);
  await expect(page.getByTestId('error-box')).toContainText('the doctor is for operators');
  await expect(page.getByTestId('doctor')).toHaveCount(0);
});
