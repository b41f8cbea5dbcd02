import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addDead, addTask, claim, job, queueJobs, result, rows, uniqueQueue } from './seed';

test('revoking a waiting task asks first, then removes it and writes a REVOKED result', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('revoke');
  const id = addTask(main, { queue, task: 'demo.send_email', args: ['ada@example.com', 'Hi'] });
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/jobs/${id}`);
  await expect(page.getByTestId('detail-id')).toContainText(id);
  await page.getByTestId('action-revoke').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-summary')).toContainText('1');
  // Cancelling changes nothing.
  await dialog.getByTestId('confirm-cancel').click();
  await expect(dialog).toBeHidden();
  expect(job(main, id)).toMatchObject({ state: 1 });

  await page.getByTestId('action-revoke').click();
  await dialog.getByTestId('confirm-reason').fill('e2e: revoke a stuck email');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
  const toast = page.getByTestId('toast').filter({ hasText: `${id}: revoked` });
  await expect(toast).toHaveAttribute('data-tone', 'success');
  // Beside the open dialog, not over it (the suite's viewport is a laptop's 1360 px).
  const [t, d] = [await toast.boundingBox(), await dialog.boundingBox()];
  expect(t && d && t.x >= d.x + d.width, `toast ${JSON.stringify(t)} clear of dialog ${JSON.stringify(d)}`).toBe(true);
  // The outcome stays until the dialog is closed; then the page follows: the task is gone from
  // the queue, its REVOKED result is shown, no Revoke button.
  await dialog.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('task-finished')).toBeVisible();
  await expect(page.getByTestId('detail-state')).toHaveText('revoked');
  await expect(page.getByTestId('result-status')).toHaveText('REVOKED');
  await expect(page.getByTestId('action-revoke')).toHaveCount(0);
  await expect(page.getByTestId('error-box')).toHaveCount(0);
  expect(job(main, id)).toBeUndefined();
  const revoked = result(main, id);
  expect(revoked?.state).toBe('REVOKED');
  expect(JSON.parse(revoked!.payload)).toMatchObject({ task_id: id, status: 'REVOKED', name: 'demo.send_email' });
  expect(pageErrors).toEqual([]);
});

test('purging a queue requires typing its name and removes only its waiting tasks', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('purge');
  const other = uniqueQueue('purge-other');
  const waiting = [addTask(main, { queue }), addTask(main, { queue }), addTask(main, { queue, eta: Date.now() / 1000 + 3600 })];
  const bystander = addTask(main, { queue: other });
  const dead = addDead(main, { queue, reason: 'rejected' });
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/queues/${queue}`);
  await page.getByTestId('action-purge').click();
  const dialog = page.getByTestId('purge-dialog');
  // It says how many it will remove before anything is typed.
  await expect(dialog.getByTestId('purge-count')).toHaveText('2 ready and 1 scheduled right now');
  const submit = dialog.getByTestId('confirm-submit');
  await expect(submit).toBeDisabled();
  await dialog.getByTestId('purge-confirm-input').fill(`${queue}x`);
  await expect(submit).toBeDisabled();
  expect(queueJobs(main, queue)).toHaveLength(3);

  await dialog.getByTestId('purge-confirm-input').fill(queue);
  await expect(submit).toBeDisabled(); // a reason is required too
  await dialog.getByTestId('confirm-reason').fill('e2e: drop a test queue');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(dialog.getByTestId('action-outcome')).toContainText('Removed 3 waiting tasks');
  await expect(page.getByTestId('toast')).toContainText(`Purged 3 waiting tasks from queue ${queue}`);
  expect(queueJobs(main, queue)).toEqual([]);
  expect(job(main, bystander)).toMatchObject({ state: 1 });
  expect(rows(main, 'SELECT id FROM potatoq_dead WHERE id = ?', dead)).toHaveLength(1);
  // potatoq's purge writes no results.
  expect(rows(main, 'SELECT id FROM potatoq_results WHERE id IN (?, ?, ?)', ...waiting)).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('a worker claiming one of the selected tasks after the confirmation opened: one toast per task says which was revoked', async ({
  page,
}) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('revoke-race');
  const free = addTask(main, { queue, task: 'demo.resize' });
  const taken = addTask(main, { queue, task: 'demo.resize' });
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/queues/${queue}?state=ready`);
  await page.getByTestId('select-all').check();
  await expect(page.getByTestId('selected-count')).toHaveText('2 selected');
  await page.getByTestId('action-revoke').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-summary')).toContainText('2');
  // The worker wins the race for one of them while the operator types the reason.
  claim(main, taken);
  await dialog.getByTestId('confirm-reason').fill('e2e: race a worker');
  await dialog.getByTestId('confirm-submit').click();

  await expect(page.getByTestId('toast').filter({ hasText: `${free}: revoked` })).toHaveAttribute('data-tone', 'success');
  const refused = page.getByTestId('toast').filter({ hasText: `${taken}: not revoked` });
  await expect(refused).toHaveAttribute('data-tone', 'error');
  await expect(refused).toContainText('running');
  await expect(dialog.getByTestId('outcome-succeeded')).toHaveText('1 of 2 revoked');
  // Toasts live in the open dialog (the page behind it is inert): an error can be dismissed.
  await refused.getByRole('button', { name: 'Dismiss' }).click();
  await expect(refused).toHaveCount(0);
  await expect(dialog).toBeVisible();
  // The claimed task is untouched: still running, no REVOKED mark.
  expect(job(main, taken)).toMatchObject({ state: 2 });
  expect(result(main, taken)).toBeUndefined();
  expect(job(main, free)).toBeUndefined();
  expect(result(main, free)?.state).toBe('REVOKED');
  expect(pageErrors).toEqual([]);
});
