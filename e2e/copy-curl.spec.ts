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
  c = await startConsole({
    POTATOQ_CONSOLE_TOKENS: JSON.stringify([{ name: 'ci', hash: tokenHash(SECRETS.operatorToken), role: 'operator' }]),
  });
});
test.afterAll(async () => c?.stop());

const runCopied = (command: string) =>
  execFileSync('bash', ['-c', command], { env: { ...process.env, POTATOQ_CONSOLE_TOKEN: SECRETS.operatorToken }, encoding: 'utf8' });

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
  const audit = rows<{ reason: string; who: string }>(
    `${c.dir}/state.sqlite3`,
    'SELECT reason, who FROM console_audit WHERE action = ? ORDER BY seq DESC LIMIT 1',
    'discard',
  );
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

test('the bulk dialog’s curl command starts the captured job, with the count and the reason', async ({ page }) => {
  const queue = uniqueQueue('curl-bulk');
  const ids = [0, 1, 2].map((i) => addDead(c.broker, { queue, args: [i], reason: 'ValueError: bulk curl' }));
  await page.goto(`${c.url}/brokers/main/queues/${queue}?state=dead`);
  await expect(page.getByTestId('dead-row').first()).toBeVisible();
  await page.getByTestId('bulk-all-replay').click();
  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-count')).toHaveText('3');
  await dialog.getByTestId('confirm-reason').fill('OPS-10 upstream fixed');
  const curl = dialog.getByTestId('curl-command');
  await expect(curl).toContainText('"confirmCount":3');
  const command = (await curl.textContent())!;
  expect(command).toMatch(/\/api\/brokers\/main\/bulk\/[a-z0-9-]+\/start/);
  expect(JSON.parse(runCopied(command))).toMatchObject({ state: expect.stringMatching(/^(running|done)$/) });
  await expect
    .poll(() => rows(c.broker, `SELECT id FROM potatoq_dead WHERE id IN (${ids.map(() => '?').join(',')})`, ...ids).length)
    .toBe(0);
  expect(rows(c.broker, `SELECT id FROM potatoq_jobs WHERE id IN (${ids.map(() => '?').join(',')})`, ...ids)).toHaveLength(3);
});

test('the enqueue form shows the request as curl next to the CLI line, and the curl enqueues the same message', async ({ page }) => {
  const queue = uniqueQueue('curl-enqueue');
  await page.goto(`${c.url}/brokers/main/enqueue`);
  await page.getByTestId('enqueue-task').fill('demo.echo');
  await page.getByTestId('enqueue-queue').fill(queue);
  await page.getByTestId('enqueue-kwargs').fill('{"big": 12345678901234567890123, "it\'s": "<b>"}');
  const curl = page.getByTestId('curl-command');
  await expect(curl).toContainText('/api/brokers/main/enqueue');
  await expect(curl).toContainText('"task":"demo.echo"');
  await expect(curl).toContainText('"fields":{');
  await expect(curl).toContainText('$POTATOQ_CONSOLE_TOKEN');
  await expect(page.getByTestId('enqueue-preview')).toContainText('"kwargs":{"big":12345678901234567890123');
  const preview = (await page.getByTestId('enqueue-preview').textContent())!.trim();

  const answer = JSON.parse(runCopied((await curl.textContent())!)) as { id: string; queue: string; payload: string };
  expect(answer.queue).toBe(queue);
  const [row] = rows<{ payload: string }>(c.broker, 'SELECT payload FROM potatoq_jobs WHERE id = ?', answer.id);
  expect(row?.payload).toBe(answer.payload);
  // The preview's message, but for the id and time set at write time.
  const strip = (p: string) => p.replace(/"(id|root_id)":"[^"]*"/g, '"$1":""').replace(/"enqueued_at":[0-9.e+-]+/, '"enqueued_at":0');
  expect(strip(answer.payload)).toBe(strip(preview));
});
