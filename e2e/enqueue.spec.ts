import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { queueJobs, uniqueQueue } from './seed';

test('enqueue refuses bad JSON arguments inline, writing nothing, then writes exactly the previewed message', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('enqueue');
  const { pageErrors } = guardPage(page);

  await page.goto('/brokers/main/enqueue');
  await page.getByLabel('Task name', { exact: true }).fill('demo.add');
  await page.getByLabel('Queue', { exact: true }).fill(queue);
  await page.getByLabel('Arguments (JSON list)', { exact: true }).fill('[1, 2');
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('error-args')).toBeVisible();
  await expect(page.getByLabel('Arguments (JSON list)', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('enqueue-success')).toHaveCount(0);
  expect(queueJobs(main, queue)).toEqual([]);

  await page.getByLabel('Arguments (JSON list)', { exact: true }).fill('[1, 12345678901234567890123]');
  await page.getByLabel('Keyword arguments (JSON object)', { exact: true }).fill('{"note": "<b>ž</b>"}');
  await expect(page.getByTestId('error-args')).toHaveCount(0);
  // The broker's adapter builds the preview (server side) once the typing settles.
  await expect(page.getByTestId('enqueue-preview')).toContainText('"kwargs":{"note":"<b>ž</b>"}');
  await expect(page.getByTestId('cli-command')).toContainText('potatoq call demo.add');
  const preview = (await page.getByTestId('enqueue-preview').textContent())?.trim() ?? '';
  expect(preview).toContain('"task":"demo.add"');
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-success')).toBeVisible();
  const id = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';

  const written = queueJobs(main, queue);
  expect(written).toHaveLength(1);
  expect(written[0]).toMatchObject({ id, queue, task: 'demo.add', state: 1 });
  // Byte for byte what the preview showed, except the id and time set at write time.
  const stored = written[0]!.payload;
  const enqueuedAt = /"enqueued_at":([0-9.e+-]+)/.exec(stored)?.[1];
  const expected = preview
    .replace(/"id":"[^"]*"/, `"id":"${id}"`)
    .replace(/"root_id":"[^"]*"/, `"root_id":"${id}"`)
    .replace(/"enqueued_at":[0-9.e+-]+/, `"enqueued_at":${enqueuedAt}`);
  expect(stored).toBe(expected);
  expect(stored).toContain('"args":[1,12345678901234567890123]');
  expect(stored).toContain('"kwargs":{"note":"<b>ž</b>"}');
  expect(pageErrors).toEqual([]);
});
