import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { requireService } from './brokers-extra';
import { e2eBrokers } from './brokers';
import { brokerCard, guardPage } from './helpers';
import { sdjBrokers, sdjDb, sdjStatus } from './sdj-dbs';
import { claim, goEnqueue, idOf, makeDeadLetter, q } from '../tests/brokers/sdj/rows';
import type { TestDb } from '../tests/sdj/databases';

// Simple Durable Jobs in the browser, on PostgreSQL 15 and MySQL 9 (e2e/sdj-dbs.ts): rows
// written the way the library writes them (tests/brokers/sdj/rows.ts), every action checked in
// the page and in the database. Screenshots go to test-results/sdj-*.png.

const dir = () => e2eBrokers().dir;
const queueName = (what: string) => `e2esdj${what}${randomBytes(3).toString('hex')}`;

async function row(db: TestDb, id: string): Promise<Record<string, unknown>> {
  const [r] = await q(db, 'SELECT status, attempt, queue, priority, args, dead_lettered_at, locked_by FROM jobs WHERE id = ?', [
    idOf(db, id),
  ]);
  return r ?? {};
}

const argsOf = (r: Record<string, unknown>) => JSON.parse(Buffer.isBuffer(r.args) ? r.args.toString('utf8') : String(r.args)) as unknown;

async function confirm(page: Page, reason: string, expectWords?: RegExp): Promise<void> {
  const dialog = page.getByTestId('confirm-dialog');
  if (expectWords) await expect(dialog).toContainText(expectWords);
  const why = dialog.getByTestId('confirm-reason');
  if (await why.count()) await why.fill(reason);
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  await dialog.getByTestId('confirm-cancel').click();
}

for (const b of sdjBrokers(process.env.POTATOQ_E2E_DIR ?? '')) {
  test.describe(`Simple Durable Jobs on ${b.label}`, () => {
    let db: TestDb;
    test.beforeAll(() => {
      db = sdjDb(dir(), b.id);
    });
    test.afterAll(async () => {
      await db?.close();
    });

    test('overview, states as tabs, a job decoded, a dead letter replayed as the library requeues', async ({ page }, info) => {
      test.skip(!requireService(sdjStatus(dir(), b.id), `SDJ on ${b.label}`), `SDJ on ${b.label}: ${sdjStatus(dir(), b.id)}`);
      const queue = queueName('ov');
      const waiting = [
        await goEnqueue(db, { queue, type: 'billing.charge', args: { order: 1, amount: '12.50' } }),
        await goEnqueue(db, { queue, type: 'billing.charge', args: { order: 2 } }),
      ];
      const running = await goEnqueue(db, { queue, type: 'billing.charge', args: { order: 3 } });
      await claim(db, running, 'host-a:4242');
      const dead = await makeDeadLetter(db, { queue, type: 'billing.refund', args: { order: 9 }, maxRetries: 0, error: 'card declined' });
      const { pageErrors } = guardPage(page);

      await page.goto('/');
      const card = brokerCard(page, b.id);
      await expect(card.getByTestId('broker-badge')).toHaveText(`Simple Durable Jobs · ${b.label}`);
      await page.goto(`/brokers/${b.id}`);
      const qrow = page.locator(`[data-testid="queue-row"][data-queue="${queue}"]`);
      await expect(qrow.getByTestId('count-pending')).toHaveText('2');
      await expect(qrow.getByTestId('count-running')).toHaveText('1');
      await expect(qrow.getByTestId('count-dead')).toHaveText('1');
      await page.screenshot({ path: info.outputPath(`sdj-${b.dialect}-overview.png`), fullPage: true });

      await page.goto(`/brokers/${b.id}/queues/${queue}?state=pending`);
      await expect(page.getByTestId('task-row')).toHaveCount(2);
      await page.goto(`/brokers/${b.id}/queues/${queue}?state=running`);
      await expect(page.getByTestId('task-row')).toHaveCount(1);
      await expect(page.getByTestId('task-row')).toContainText('host-a:4242');

      await page.goto(`/brokers/${b.id}/jobs/${waiting[0]}`);
      await expect(page.getByTestId('detail-id')).toContainText(waiting[0]!);
      await expect(page.locator('main')).toContainText('12.50');
      await expect(page.locator('main')).toContainText('billing.charge');
      await page.screenshot({ path: info.outputPath(`sdj-${b.dialect}-job.png`), fullPage: true });

      await page.goto(`/brokers/${b.id}/dead?queue=${queue}`);
      const drow = page.locator(`[data-testid="dead-row"][data-id="${dead}"]`);
      await expect(drow).toContainText('card declined');
      await drow.getByRole('link').first().click();
      await expect(page.getByTestId('dead-detail')).toBeVisible();
      await page.getByTestId('action-replay').click();
      await confirm(page, 'e2e: replay a declined refund');
      // In the database: the same row, pending again with its execution columns cleared.
      await expect.poll(async () => (await row(db, dead)).status).toBe('pending');
      const r = await row(db, dead);
      expect(r).toMatchObject({ attempt: 0, queue });
      expect(r.dead_lettered_at ?? null).toBeNull();
      expect(argsOf(r)).toEqual({ order: 9 });
      expect(pageErrors).toEqual([]);
    });

    test('cancel a pending job, pause and resume its queue, purge what waits', async ({ page }) => {
      test.skip(!requireService(sdjStatus(dir(), b.id), `SDJ on ${b.label}`), `SDJ on ${b.label}: ${sdjStatus(dir(), b.id)}`);
      const queue = queueName('act');
      const cancel = await goEnqueue(db, { queue, type: 'mail.send', args: { to: 'ada@example.com' } });
      const purged = [await goEnqueue(db, { queue, type: 'mail.send' }), await goEnqueue(db, { queue, type: 'mail.send' })];
      const running = await goEnqueue(db, { queue, type: 'mail.send' });
      await claim(db, running);
      const { pageErrors } = guardPage(page);

      await page.goto(`/brokers/${b.id}/jobs/${cancel}`);
      await page.getByTestId('action-revoke').click();
      await confirm(page, 'e2e: cancel one mail');
      await expect.poll(async () => (await row(db, cancel)).status).toBe('cancelled');

      await page.goto(`/brokers/${b.id}/queues/${queue}`);
      await page.getByTestId('action-pause').click();
      await expect(page.getByTestId('queue-paused-badge')).toBeVisible();
      const paused = async () =>
        (await q(db, 'SELECT paused FROM queue_states WHERE queue = ?', [queue])).map((x) =>
          Boolean(Number(x.paused) || x.paused === true),
        )[0] ?? false;
      expect(await paused()).toBe(true);
      await page.getByTestId('action-pause').click();
      await expect(page.getByTestId('queue-paused-badge')).toHaveCount(0);
      expect(await paused()).toBe(false);

      await page.getByTestId('action-purge').click();
      const dialog = page.getByTestId('purge-dialog');
      // It says what goes, counted by the states SDJ's purge takes, before anything is typed.
      await expect(dialog.getByTestId('purge-count')).toHaveText('2 pending and 0 paused right now');
      await dialog.getByTestId('purge-confirm-input').fill(queue);
      await dialog.getByTestId('confirm-reason').fill('e2e: drop a test queue');
      await dialog.getByTestId('confirm-submit').click();
      await expect(dialog.getByTestId('action-outcome')).toContainText('Removed 2');
      for (const id of purged) expect(await row(db, id)).toEqual({});
      // A worker's job stays where it is.
      expect((await row(db, running)).status).toBe('running');
      expect(pageErrors).toEqual([]);
    });

    test('enqueue writes the previewed statement; a letter opens with its args', async ({ page }) => {
      test.skip(!requireService(sdjStatus(dir(), b.id), `SDJ on ${b.label}`), `SDJ on ${b.label}: ${sdjStatus(dir(), b.id)}`);
      const queue = queueName('enq');
      const { pageErrors } = guardPage(page);

      await page.goto(`/brokers/${b.id}/enqueue`);
      await page.getByLabel('Type', { exact: true }).fill('report.build');
      await page.getByLabel('Queue', { exact: true }).fill(queue);
      await page.getByLabel('Args (JSON object)', { exact: true }).fill('[1, 2]');
      await page.getByTestId('enqueue-submit').click();
      await expect(page.getByTestId('error-args')).toBeVisible();
      await page.getByLabel('Args (JSON object)', { exact: true }).fill('{"month": "2026-11", "big": 12345678901234567890123}');
      await expect(page.getByTestId('enqueue-preview')).toContainText('INSERT INTO');
      await page.getByTestId('enqueue-submit').click();
      await expect(page.getByTestId('enqueue-success')).toBeVisible();
      const id = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';
      const r = await row(db, id);
      expect(r).toMatchObject({ status: 'pending', attempt: 0, queue });
      // The big number stays exact: the args are the JSON's bytes as written.
      const raw = Buffer.isBuffer(r.args) ? r.args.toString('utf8') : String(r.args);
      expect(raw).toContain('12345678901234567890123');

      const dead = await makeDeadLetter(db, { queue, type: 'report.build', args: { month: '2026-10' }, maxRetries: 0, error: 'no data' });
      await page.goto(`/brokers/${b.id}/dead/${dead}`);
      await expect(page.getByTestId('dead-detail')).toBeVisible();
      expect(pageErrors).toEqual([]);
    });

    test('edit and replay: the letter goes back under its id with the edited args, queue and priority', async ({ page }, info) => {
      test.skip(!requireService(sdjStatus(dir(), b.id), `SDJ on ${b.label}`), `SDJ on ${b.label}: ${sdjStatus(dir(), b.id)}`);
      const queue = queueName('edit');
      const to = queueName('edited');
      const dead = await makeDeadLetter(db, {
        queue,
        type: 'billing.charge',
        args: { order: 9, card: 'tok_expired' },
        maxRetries: 0,
        error: 'card expired',
      });
      const { pageErrors } = guardPage(page);

      await page.goto(`/brokers/${b.id}/dead/${dead}`);
      // The letter's args are SDJ's one value, under its own name: no positional or keyword arguments.
      await expect(page.getByTestId('payload-value')).toContainText('tok_expired');
      await expect(page.getByTestId('payload-value').getByRole('heading')).toHaveText('Args');
      await expect(page.getByTestId('payload-section')).not.toContainText(/positional|Keyword arguments/);
      const panel = page.getByTestId('edit-replay');
      await panel.getByTestId('edit-open').click();
      await expect(panel.getByTestId('edit-does')).toContainText(`It runs as ${dead} (same id).`);
      // Args are one JSON object, edited key by key; JSON's own kinds only.
      await expect(panel).toContainText('Args (a JSON object)');
      await panel.getByTestId('edit-kwargs.card').fill('tok_renewed');
      await panel.getByTestId('edit-kwargs.order').fill('10');
      await panel.getByTestId('edit-queue').fill(to);
      await panel.getByTestId('edit-priority').fill('3');
      await panel.getByTestId('edit-preview').click();
      const diff = panel.getByTestId('edit-diff');
      await expect(diff.locator('[data-field="queue"]')).toHaveAttribute('data-changed', 'yes');
      await expect(diff.locator('[data-field="args"]')).toContainText('tok_renewed');
      // Nothing is written by the preview.
      expect(await row(db, dead)).toMatchObject({ status: 'failed', queue });
      await page.screenshot({ path: info.outputPath(`sdj-${b.dialect}-edit-preview.png`), fullPage: true });
      await panel.getByTestId('confirm-reason').fill('e2e: the customer renewed the card');
      await panel.getByTestId('edit-confirm').click();
      await expect(panel.getByTestId('edit-outcome')).toHaveAttribute('data-outcome', 'ok');

      // In the database: the same row, pending on the new queue with the edited args, as Requeue leaves it.
      const r = await row(db, dead);
      expect(r).toMatchObject({ status: 'pending', attempt: 0, queue: to, priority: 3 });
      expect(r.dead_lettered_at ?? null).toBeNull();
      expect(argsOf(r)).toEqual({ order: 10, card: 'tok_renewed' });
      // In the page: the console moves on to the job, pending, with the edit, in SDJ's words.
      await expect(page).toHaveURL(new RegExp(`/brokers/${b.id}/jobs/${dead}$`));
      await expect(page.getByTestId('detail-state')).toHaveText('pending');
      await expect(page.getByTestId('payload-value')).toContainText('tok_renewed');
      await expect(page.getByTestId('task-detail')).toContainText('Attempt');
      await expect(page.getByTestId('action-revoke')).toHaveText('Cancel');
      await page.screenshot({ path: info.outputPath(`sdj-${b.dialect}-edit-replayed.png`), fullPage: true });
      await page.goto(`/brokers/${b.id}/dead?queue=${queue}`);
      await expect(page.locator(`[data-testid="dead-row"][data-id="${dead}"]`)).toHaveCount(0);
      expect(pageErrors).toEqual([]);
    });
  });
}
