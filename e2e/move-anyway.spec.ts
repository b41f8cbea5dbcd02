import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { e2eBrokers } from './brokers';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { job, uniqueQueue } from './seed';

// A Celery failure whose earlier move to potatoq did not finish: the move journal (the server's
// state store) holds the row a console that died after its enqueue leaves. Moving it again sends
// nothing and says why; "Move anyway", confirmed, moves it, and both audit entries say force.

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
});

test('a letter of an unfinished move is not sent again until the operator confirms "move anyway"', async ({ page, request }) => {
  const x = extraBrokers();
  const { main, dir } = e2eBrokers();
  const queue = uniqueQueue('anyway');
  const [id] = celerySeed<string>(x, [
    {
      op: 'dead_letter',
      task: 'shop.refund',
      queue,
      args: [7],
      kwargs: {},
      reason: 'Traceback (most recent call last):\nValueError: no\n',
    },
  ]);
  // Any move opens the journal's table in the server's state store; then the row a console that
  // died between the two steps of a move of `id` left there.
  // `connection: close`: the audit read below comes after the server's 5 s keep-alive, and a
  // reused idle socket it is closing at that moment fails as "socket hang up".
  const warm = await request.post('/api/brokers/celery/dead/move', {
    data: { to: 'main', ids: [`none-${randomUUID()}`], reason: 'e2e' },
    headers: { connection: 'close' },
  });
  expect(warm.ok()).toBe(true);
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const state = new Database(path.join(dir, 'state.sqlite3'), { timeout: 10_000 });
  state
    .prepare(
      'INSERT INTO console_move_journal (source, id, target, move_id, at, who, audit_id, until_ms, note) VALUES (?, ?, ?, ?, ?, ?, NULL, 0, NULL)',
    )
    .run('celery', id, 'main', randomUUID(), at, 'olga');
  state.close();
  const { pageErrors } = guardPage(page);
  try {
    await page.goto(`/brokers/celery/dead/${encodeURIComponent(id!)}`);
    await page.getByTestId('action-move').click();
    const dialog = page.getByTestId('move-dialog');
    await dialog.getByTestId('move-target').selectOption('main');
    await dialog.getByTestId('confirm-reason').fill('OPS-12: refunds run on potatoq now');
    await dialog.getByTestId('move-submit').click();
    const failed = dialog.getByTestId('outcome-failed');
    await expect(failed).toContainText(`a previous move at ${at} by olga may have delivered it to Main (SQLite)`);
    await expect(failed).toContainText('Nothing was sent');
    expect(job(main, id!)).toBeUndefined();

    const anyway = dialog.getByTestId('move-anyway');
    await expect(anyway).toContainText('An earlier move of this letter did not finish');
    const go = anyway.getByTestId('move-anyway-submit');
    await expect(go).toBeDisabled();
    await anyway.getByTestId('move-anyway-confirm').check();
    await go.click();
    await expect(anyway.getByTestId('outcome-succeeded')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('move-anyway.png'), fullPage: true });

    expect(job(main, id!)).toMatchObject({ id, queue, task: 'shop.refund', state: 1 });
    expect(celerySeed(x, [{ op: 'result', id }])[0]).toBeNull();
    const audit = await request.get(`/api/audit?broker=celery&action=move&task=${encodeURIComponent(id!)}`);
    const entries = ((await audit.json()) as { entries: { details: Record<string, unknown>; results: { message: string }[] }[] }).entries;
    expect(entries.map((e) => e.details.force ?? false)).toEqual([true, false]);
    expect(JSON.stringify(entries[0]!.results)).toContain(`moved anyway over a move at ${at} by olga`);
    expect(pageErrors).toEqual([]);
  } finally {
    const db = new Database(main, { timeout: 10_000 });
    db.prepare('DELETE FROM potatoq_jobs WHERE id = ?').run(id);
    db.close();
  }
});
