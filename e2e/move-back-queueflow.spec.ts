import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { api, deadLetter, qf } from './queueflow-api';
import { uniqueQueue } from './seed';

// The way back (docs/migrating-to-queueflow.md): a dead letter of the real QueueFlow server moved
// to Celery on Redis from its page, through the call mapping read the other way. The dialog
// previews the exact Celery call, the outcome is per id; then in the brokers themselves: the
// task waits on Celery's queue under the job's id with the mapped arguments, and QueueFlow's
// letter is replayed with its copy cancelled (its queue resumed), so nothing runs twice.

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  test.skip(!requireService(qf().why ?? null, 'QueueFlow server'), 'QueueFlow is not available');
});

test('a QueueFlow dead letter moved back to Celery on Redis: previewed, per id, on Celery, let go on QueueFlow', async ({ page }) => {
  const x = extraBrokers();
  const tag = randomBytes(3).toString('hex');
  const [celeryTask, qfTask, queue] = [`shop.refund_${tag}`, `billing.refund_${tag}`, uniqueQueue('back')];
  const { job, letter } = await deadLetter(queue, qfTask, 'refused: card expired', { n: 7, label: 'x', extra: true });
  const { pageErrors } = guardPage(page);
  // Celery's shop.refund was migrated to QueueFlow's billing.refund: positional n and label.
  const saved = await page.request.post('/api/brokers/celery/mappings', {
    data: { target: 'qf', task: celeryTask, targetTask: qfTask, args: ['n', 'label'] },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`/brokers/qf/dead/${letter}`);
  await page.getByTestId('action-move').click();
  const dialog = page.getByTestId('move-dialog');
  await dialog.getByTestId('move-target').selectOption('celery');
  await expect(dialog.getByTestId('move-summary')).toContainText(
    `Move 1 dead letter from broker qf to broker celery (from queue ${queue}): each is converted through the call mapping whose target task is its name and enqueued there under its job's id, then marked moved here.`,
  );
  // The exact call Celery will get: its task, arguments as Python writes them, queue and id.
  await expect(dialog.getByTestId('move-preview-call')).toHaveText(
    `→ ${celeryTask}([7, 'x'], **{'extra': True}) on ${queue} · task id ${job} · priority 0`,
  );
  await expect(dialog.getByTestId('move-preview')).toContainText('1 of 1 can move');
  await page.screenshot({ path: test.info().outputPath('move-back-preview.png'), fullPage: true });
  await expect(dialog.getByTestId('move-submit')).toBeDisabled();
  await dialog.getByTestId('confirm-reason').fill('OPS-9: refunds run on Celery again');
  await expect(dialog.getByTestId('move-submit')).toHaveText('Move 1 dead letter to celery');
  await dialog.getByTestId('move-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toHaveText('1 of 1 moved');
  const outcome = dialog.locator(`[data-testid="outcome-new-task"][data-id="${letter}"]`);
  await expect(outcome).toContainText(
    new RegExp(
      `^${letter} → ${job}enqueued on Shop \\(Celery on Redis\\) \\(as task ${job}: sent to ${queue} as ${celeryTask}\\); ` +
        'on Flows \\(QueueFlow\\): marked as moved to Shop \\(Celery on Redis\\): replayed as job [0-9a-f-]+, ' +
        'which was cancelled before any worker could take it',
    ),
  );
  await page.screenshot({ path: test.info().outputPath('move-back-outcome.png'), fullPage: true });

  // On Celery: the task waits in its queue under the job's id, as a Celery worker would decode it.
  const [message] = celerySeed<{ task: string; args: unknown[]; kwargs: Record<string, unknown> } | null>(x, [{ op: 'message', id: job }]);
  expect(message).toMatchObject({ task: celeryTask, args: [7, 'x'], kwargs: { extra: true } });
  expect(celerySeed<Record<string, number>>(x, [{ op: 'sizes' }])[0]![queue]).toBe(1);
  // On QueueFlow: the letter replayed, its copy cancelled before any worker took it, the queue running.
  const marked = (await api<{ replay_job_id?: string }>('GET', `/api/v1/dlq/${letter}`)).body;
  expect(marked.replay_job_id).toEqual(expect.any(String));
  expect((await api<{ status: string }>('GET', `/api/v1/jobs/${marked.replay_job_id!}`)).body.status).toBe('cancelled');
  const queues = (await api<{ queues: Array<{ queue: string; paused?: boolean }> }>('GET', '/api/v1/queues')).body.queues;
  expect(queues.find((q) => q.queue === queue)?.paused ?? false).toBe(false);
  const pending = await api<{ jobs: unknown[] }>('GET', `/api/v1/jobs?queue=${queue}&status=pending`);
  expect(pending.body.jobs).toEqual([]);

  // The page goes on to the dead letters; moving the letter again sends nothing (it left them).
  await expect(page).toHaveURL(/\/brokers\/qf\/dead$/);
  const again = await page.request.post('/api/brokers/qf/dead/move', { data: { to: 'celery', ids: [letter], reason: 'again' } });
  expect(((await again.json()) as { failed: Array<{ outcome: string }> }).failed.map((f) => f.outcome)).toEqual(['missing']);
  expect(celerySeed<Record<string, number>>(x, [{ op: 'sizes' }])[0]![queue]).toBe(1);
  expect(pageErrors).toEqual([]);
});
