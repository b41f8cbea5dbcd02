import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { guardPage } from './helpers';
import { addDead, addTask, rows, uniqueQueue } from './seed';
import { SECRETS, startConsole, tokenHash, type RunningConsole } from './auth-server';

// "Copy as curl" in the action dialogs: the command names the token only as
// $POTATOQ_CONSOLE_TOKEN, and, run by bash with a real operator token in that variable, does
// what the dialog would have done (checked in the broker's SQLite file).

let c: RunningConsole;
test.beforeAll(async () => {
  c = await startConsole({ POTATOQ_CONSOLE_TOKENS: JSON.stringify([{ name: 'ci', hash: tokenHash(SECRETS.operatorToken), role: 'operator' }]) });
});
test.afterAll(async () => c?.stop());

const runCopied = (command: string) => execFileSync('bash', ['-c', command], { env: { ...process.env, POTATOQ_CONSOLE_TOKEN: SECRETS.operatorToken }, encoding: 'utf8' });

test('the discard dialog’s curl command, with the reason typed, discards the letter through the API', async ({ page }) => {
  const queue = uniqueQueue('curl');
  const id = addDead(c.broker, { queue, reason: 'ValueError: curl e2e' });
  const { pageErrors } = guardPage(page);
  await page.goto(`${c.url}/brokers/main/dead/${encodeURIComponent(id)}`);
  await page.getByTestId('action-discard').click();
  const dialog = page.getByTestId('confirm-dialog');
  const curl = dialog.getByTestId('curl-command');
  await expect(curl).toContainText('<why: recorded in the audit trail>');
  await dialog.getByTestId('confirm-reason').fill("OPS-9 it's a test");
  await expect(curl).toContainText('OPS-9');
  const command = (await curl.textContent())!;
  expect(command).toContain('Authorization: Bearer $POTATOQ_CONSOLE_TOKEN');
  expect(command).not.toContain(SECRETS.operatorToken);
  await expect(dialog.getByRole('button', { name: 'Copy as curl' })).toBeVisible();
  await dialog.getByTestId('confirm-cancel').click();

  const answer = JSON.parse(runCopied(command)) as { action: string; succeeded: Array<{ id: string }> };
  expect(answer).toMatchObject({ action: 'discard', succeeded: [{ id }] });
  expect(rows(c.broker, 'SELECT id FROM potatoq_dead WHERE id = ?', id)).toEqual([]);
  const audit = rows<{ reason: string; who: string }>(`${c.dir}/state.sqlite3`, 'SELECT reason, who FROM console_audit WHERE action = ? ORDER BY seq DESC LIMIT 1', 'discard');
  expect(audit[0]).toMatchObject({ reason: "OPS-9 it's a test", who: 'token:ci' });
  expect(pageErrors).toEqual([]);
});

test('the purge dialog shows its curl command too', async ({ page }) => {
  const queue = uniqueQueue('curl-purge');
  addTask(c.broker, { queue });
  await page.goto(`${c.url}/brokers/main/queues/${queue}`);
  await page.getByTestId('action-purge').click();
  const curl = page.getByTestId('purge-dialog').getByTestId('curl-command');
  await expect(curl).toContainText(`/api/brokers/main/queues/${queue}/purge`);
  await expect(curl).toContainText(`"confirm":"${queue}"`);
  await expect(curl).toContainText('$POTATOQ_CONSOLE_TOKEN');
});
