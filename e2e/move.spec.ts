import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import Database from 'better-sqlite3';
import { job, uniqueQueue } from './seed';
import { e2eQueueflow } from './queueflow-server';

// A Celery failure moved to potatoq in the browser: the REAL Celery 5.7 stores the FAILURE record
// (result_extended) in the run's Redis result backend, in a queue of this spec's own; the
// operator picks the SQLite broker `main` from the compatible ones (none is preselected), confirms with a reason, and
// the task is ready there under its own id while Celery no longer has the failure.

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
});

test('moves a Celery failure to a potatoq broker, offering only the compatible brokers', async ({ page }) => {
  const x = extraBrokers();
  const { main } = e2eBrokers();
  const queue = uniqueQueue('move');
  const [id] = celerySeed<string>(x, [
    {
      op: 'dead_letter',
      task: 'shop.refund',
      queue,
      args: [42, 'EUR'],
      kwargs: { note: 'late' },
      reason: 'Traceback (most recent call last):\nValueError: refund window closed\n',
    },
  ]);
  const { pageErrors } = guardPage(page);
  try {
    await page.goto(`/brokers/celery/dead/${encodeURIComponent(id!)}`);
    await expect(page.getByTestId('dead-detail')).toBeVisible();
    await page.getByTestId('action-move').click();
    const dialog = page.getByTestId('move-dialog');
    const picker = dialog.getByTestId('move-target');
    await expect(picker).toBeVisible();
    // Nothing is preselected: with a reason given, the move still waits for a chosen target.
    await expect(picker).toHaveValue('');
    await expect(dialog.getByTestId('move-summary')).toHaveCount(0);
    await dialog.getByTestId('confirm-reason').fill('OPS-9: refunds run on potatoq now');
    await expect(dialog.getByTestId('move-submit')).toBeDisabled();
    const offered = await picker.locator('option:not([value=""])').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    // potatoq brokers are offered, and QueueFlow (another call model: through call mappings,
    // e2e/migrate-queueflow.spec.ts); the missing file is not.
    expect(offered).toContain('main');
    if (e2eQueueflow(e2eBrokers().dir).url) expect(offered).toContain('qf');
    expect(offered).not.toContain('gone');
    await dialog.getByTestId('move-refused').locator('summary').click();
    const refused = dialog.getByTestId('move-refused');
    await expect(refused).toContainText('Gone (missing file) cannot be reached');
    // potatoq on RabbitMQ shares the model but says why it can't take calls.
    await expect(refused).toContainText('RabbitMQ cannot look a queued message up by its id');
    await picker.selectOption('main');
    await expect(dialog.getByTestId('move-summary')).toContainText('Move 1 dead letter from broker celery to broker main');
    await dialog.getByTestId('move-submit').click();
    await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('move-done.png'), fullPage: true });

    // In the brokers: ready on potatoq under the same id, with the same call; gone from Celery.
    const moved = job(main, id!);
    expect(moved).toMatchObject({ id, queue, task: 'shop.refund', state: 1 });
    expect(JSON.parse(moved!.payload)).toMatchObject({ task: 'shop.refund', id, queue, args: [42, 'EUR'], kwargs: { note: 'late' } });
    expect(celerySeed(x, [{ op: 'result', id }])[0]).toBeNull();
    // Both brokers' audit trails have the move, each naming the other.
    for (const [broker, action] of [
      ['celery', 'move'],
      ['main', 'move-in'],
    ] as const) {
      const audit = await page.request.get(`/api/audit?broker=${broker}&action=${action}`);
      expect(audit.ok()).toBe(true);
      expect(JSON.stringify(await audit.json())).toContain(id!);
    }
    expect(pageErrors).toEqual([]);
  } finally {
    const db = new Database(main, { timeout: 10_000 });
    db.prepare('DELETE FROM potatoq_jobs WHERE id = ?').run(id);
    db.close();
  }
});
