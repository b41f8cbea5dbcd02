import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { extraBrokers, extraStatus, pgSeed, requireService } from './brokers-extra';
import { brokerCard, guardPage } from './helpers';
import { addTask, uniqueQueue } from './seed';
import { pgDead, pgJob, pgResult } from './services';

// The console on a PostgreSQL broker (its own schema, table prefix `E2e-pq_`, created by the
// real `potatoq migrate`) next to the SQLite one; rows are written by the real potatoq
// (tests/py/seeder_pg.py) and checked in PostgreSQL itself.

test.beforeEach(() => {
  test.skip(!requireService(extraStatus().pg, 'PostgreSQL'), 'PostgreSQL is not available');
});

test('the overview shows the SQLite and the PostgreSQL broker side by side, each with its own counts', async ({ page }) => {
  const x = extraBrokers();
  const { main } = e2eBrokers();
  const sqliteQueue = uniqueQueue('side');
  addTask(main, { queue: sqliteQueue });
  const { pageErrors } = guardPage(page);

  await page.goto('/');
  const sqlite = brokerCard(page, 'main');
  const postgres = brokerCard(page, 'pg');
  await expect(sqlite).toHaveAttribute('data-state', 'ok');
  await expect(postgres).toHaveAttribute('data-state', 'ok');
  // Seeded once by global setup: 2 ready, 1 scheduled, 1 dead letter.
  const pgRow = postgres.locator(`[data-testid="queue-row"][data-queue="${x.pg.queues.overview}"]`);
  await expect(pgRow.getByTestId('count-ready')).toHaveText('2');
  await expect(pgRow.getByTestId('count-scheduled')).toHaveText('1');
  await expect(pgRow.getByTestId('count-running')).toHaveText('0');
  await expect(pgRow.getByTestId('count-dead')).toHaveText('1');
  const sqliteRow = sqlite.locator(`[data-testid="queue-row"][data-queue="${sqliteQueue}"]`);
  await expect(sqliteRow.getByTestId('count-ready')).toHaveText('1');
  // Each broker lists only its own queues.
  await expect(sqlite.locator(`[data-queue="${x.pg.queues.overview}"]`)).toHaveCount(0);
  await expect(postgres.locator(`[data-queue="${sqliteQueue}"]`)).toHaveCount(0);

  await postgres.getByRole('link', { name: x.pg.queues.overview }).click();
  await expect(page.getByTestId('queue-name')).toHaveText(x.pg.queues.overview);
  await expect(page.getByTestId('task-row')).toHaveCount(2);
  expect(pageErrors).toEqual([]);
});

test('a PostgreSQL dead letter is replayed into its queue as ready, without its eta', async ({ page }) => {
  const x = extraBrokers();
  const queue = x.pg.queues.replay;
  const reason = 'Traceback (most recent call last):\n  File "/srv/app/tasks.py", line 9, in fail\nValueError: pg card declined\n';
  // A letter that carried an eta (a retried task); `dead retry` drops it so the task runs now.
  const [id] = pgSeed<string>(x, [{ op: 'dead_letter', task: 'rt.fail', queue, args: ['cus_pg'], countdown: 30, reason }]);
  expect(await pgDead(x, id!)).toBeDefined();
  expect(await pgJob(x, id!)).toBeUndefined();
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/pg/dead?queue=${queue}`);
  const letter = page.locator(`[data-testid="dead-row"][data-id="${id}"]`);
  await expect(letter).toContainText('ValueError: pg card declined');
  await letter.getByRole('link').first().click();
  await expect(page.getByTestId('dead-detail')).toBeVisible();
  await expect(page.getByTestId('dead-reason')).toContainText('line 9, in fail');
  await page.getByTestId('action-replay').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-summary')).toContainText(queue);
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();

  // In the page: the console takes us to the task, now ready.
  await expect(page).toHaveURL(new RegExp(`/brokers/pg/jobs/${id}$`));
  await expect(page.getByTestId('detail-state')).toHaveText(/ready/i);
  // In PostgreSQL: the row moved from <prefix>dead to <prefix>jobs as ready (state 1), eta gone.
  expect(await pgDead(x, id!)).toBeUndefined();
  const replayed = await pgJob(x, id!);
  expect(replayed).toMatchObject({ id, queue, task: 'rt.fail', state: 1 });
  const payload = JSON.parse(replayed!.payload) as Record<string, unknown>;
  expect(payload).not.toHaveProperty('eta');
  expect(payload).toMatchObject({ task: 'rt.fail', id, queue, args: ['cus_pg'], v: 1 });
  expect(await pgResult(x, id!)).toBeUndefined();
  expect(pageErrors).toEqual([]);
});

test('revoking a waiting PostgreSQL task needs a reason, then removes its row and writes a REVOKED result', async ({ page }) => {
  const x = extraBrokers();
  const queue = x.pg.queues.revoke;
  const [id] = pgSeed<string>(x, [{ op: 'enqueue', task: 'rt.record', queue, args: ['ada@example.com'] }]);
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/pg/jobs/${id}`);
  await expect(page.getByTestId('detail-id')).toContainText(id!);
  await expect(page.getByTestId('detail-state')).toHaveText(/ready/i);
  await page.getByTestId('action-revoke').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-summary')).toContainText('1');
  const submit = dialog.getByTestId('confirm-submit');
  await expect(submit).toBeDisabled(); // the reason is required
  await dialog.getByTestId('confirm-reason').fill('   ');
  await expect(submit).toBeDisabled();
  // Cancelling changes nothing.
  await dialog.getByTestId('confirm-cancel').click();
  await expect(dialog).toBeHidden();
  expect(await pgJob(x, id!)).toMatchObject({ state: 1 });

  await page.getByTestId('action-revoke').click();
  await dialog.getByTestId('confirm-reason').fill('e2e: revoke on PostgreSQL');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  expect(await pgJob(x, id!)).toBeUndefined();
  const revoked = await pgResult(x, id!);
  expect(revoked?.state).toBe('REVOKED');
  expect(JSON.parse(revoked!.payload)).toMatchObject({ task_id: id, status: 'REVOKED', name: 'rt.record' });
  expect(pageErrors).toEqual([]);
});

test('a NUL in a PostgreSQL filter, search or id is a 400 before the database, never its raw error', async ({ request }) => {
  const x = extraBrokers();
  const q = x.pg.queues.overview;
  for (const path of [
    `/api/brokers/pg/tasks?queue=${q}&q=a%00b`,
    `/api/brokers/pg/tasks?queue=${q}%00`,
    `/api/brokers/pg/dead?queue=${q}&q=%00`,
    '/api/brokers/pg/tasks/abc%00def',
    '/api/brokers/pg/dead/abc%00',
  ]) {
    const r = await request.get(path);
    expect(r.status(), path).toBe(400);
    const text = await r.text();
    expect(text, path).not.toMatch(/invalid byte sequence|UTF8|0x00|SQLSTATE/);
  }
  const write = await request.post('/api/brokers/pg/dead/discard', { data: { ids: ['x\u0000y'], reason: 'nul probe' } });
  expect(write.status()).toBe(400);
});
