import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { celerySeed, extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { e2eQueueflow } from './queueflow-server';
import { uniqueQueue } from './seed';

// A Celery failure moved into the real QueueFlow server through a call mapping made in the
// editor: a bad mapping is refused under its field, the move dialog previews the exact job, and
// the job is in QueueFlow (checked through its API) with the mapped payload and the key.

const qf = () => e2eQueueflow(e2eBrokers().dir);

test.beforeEach(() => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  test.skip(!requireService(qf().why ?? null, 'QueueFlow server'), 'QueueFlow is not available');
});

test('a mapping made in the editor, previewed and used to move a Celery failure into QueueFlow', async ({ page }) => {
  const x = extraBrokers();
  const task = `shop.charge_${randomBytes(3).toString('hex')}`;
  const queue = uniqueQueue('mig');
  const [id] = celerySeed<string>(x, [
    {
      op: 'dead_letter',
      task,
      queue,
      args: [7, 'x'],
      kwargs: { note: 'n' },
      reason: 'Traceback (most recent call last):\nValueError: no\n',
    },
  ]);
  const { pageErrors } = guardPage(page);

  await page.goto('/brokers/celery/mappings');
  const form = page.getByTestId('mapping-form');
  await form.getByTestId('mapping-target').selectOption('qf');
  await form.getByTestId('mapping-task').fill(task);
  await form.getByTestId('mapping-target-task').fill('shop.charge');
  await form.getByTestId('mapping-queue').fill(queue);
  await form.getByTestId('mapping-add-arg').click();
  await form.getByTestId('mapping-add-arg').click();
  await form.getByTestId('mapping-arg-0').fill('order');
  await form.getByTestId('mapping-arg-1').fill('order');
  await form.getByTestId('mapping-save').click();
  await expect(form.getByTestId('mapping-error-args-1')).toHaveText('payload key "order" is already positional argument 0');
  await form.getByTestId('mapping-arg-1').fill('label');
  await form.getByTestId('mapping-max-retries').fill('2');
  await form.getByTestId('mapping-save').click();
  await expect(page.getByTestId(`mapping-row-${task}`)).toContainText('args[0] → order, args[1] → label');

  await page.goto(`/brokers/celery/dead/${encodeURIComponent(id!)}`);
  await page.getByTestId('action-move').click();
  const dialog = page.getByTestId('move-dialog');
  await dialog.getByTestId('move-target').selectOption('qf');
  await expect(dialog.getByTestId('move-summary')).toContainText("converted through its task's call mapping");
  await expect(dialog.getByTestId('move-preview-job')).toContainText('{"order":7,"label":"x","note":"n"}');
  await expect(dialog.getByTestId('move-preview-job')).toContainText(`key console-move-${id}`);
  await dialog.getByTestId('confirm-reason').fill('OPS-7: charges run on QueueFlow now');
  await dialog.getByTestId('move-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toHaveText('1 of 1 moved');
  await expect(dialog.getByTestId('outcome-new-task')).toContainText('enqueued on Flows (QueueFlow) (as job');
  await page.screenshot({ path: test.info().outputPath('migrate-queueflow.png'), fullPage: true });

  const list = await fetch(`${qf().url!}/api/v1/jobs?queue=${queue}&limit=10`, { headers: { authorization: `Bearer ${qf().token!}` } });
  const jobs = ((await list.json()) as { jobs: Array<{ id: string }> }).jobs;
  expect(jobs).toHaveLength(1);
  const job = (await (
    await fetch(`${qf().url!}/api/v1/jobs/${jobs[0]!.id}`, { headers: { authorization: `Bearer ${qf().token!}` } })
  ).json()) as Record<string, unknown>;
  expect(job).toMatchObject({
    task_name: 'shop.charge',
    payload: { order: 7, label: 'x', note: 'n' },
    idempotency_key: `console-move-${id}`,
    config: expect.objectContaining({ max_retries: 2 }),
  });
  expect(celerySeed(x, [{ op: 'result', id }])[0]).toBeNull();
  expect(pageErrors).toEqual([]);
});
