import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../tests/support/potatoq-seeder';
import { SoloWorker, until } from '../tests/support/solo-worker';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addTask, queueJobs, rows, uniqueQueue } from './seed';

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

test('a malformed tagged value is refused under its own field, naming its key, and nothing is written', async ({ page, request }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('enqueue-bad');
  const { pageErrors } = guardPage(page);

  await page.goto('/brokers/main/enqueue');
  await page.getByLabel('Task name', { exact: true }).fill('demo.add');
  await page.getByLabel('Queue', { exact: true }).fill(queue);
  const kwargs = page.getByLabel('Keyword arguments (JSON object)', { exact: true });
  await kwargs.fill('{"n": 1, "at": {"__potatoq__": "datetime", "v": "tomorrow 9am"}}');
  // The adapter's preview names the path before anything is sent.
  await expect(page.getByTestId('enqueue-preview')).toContainText('kwargs.at: "tomorrow 9am" is not a valid datetime');
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('error-kwargs')).toContainText('at: "tomorrow 9am" is not a valid datetime');
  await expect(kwargs).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('error-args')).toHaveCount(0);
  await expect(page.getByTestId('enqueue-success')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/enqueue-bad-datetime.png', fullPage: true });

  // The type-aware entry refuses a value that is not of its kind, before it reaches the JSON.
  await page.getByTestId('typed-kwargs-kind').selectOption('uuid');
  await page.getByTestId('typed-kwargs-key').fill('who');
  await page.getByTestId('typed-kwargs-value').fill('not-a-uuid');
  await page.getByTestId('typed-kwargs-insert').click();
  await expect(page.getByTestId('typed-kwargs-error')).toContainText('UUID: not a UUID');
  await expect(kwargs).not.toHaveValue(/who/);

  // The API names the same path (the older flat body is still read).
  const api = await request.post('/api/brokers/main/enqueue', {
    data: { task: 'demo.add', queue, kwargs: '{"id": {"__potatoq__": "uuid", "v": "nope"}}' },
  });
  expect(api.status()).toBe(400);
  expect(Object.keys(((await api.json()) as { error: { fields: Record<string, string> } }).error.fields)).toEqual(['kwargs.id']);
  expect(queueJobs(main, queue)).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('sent before its preview arrives, a malformed value is still refused under its field, not as a broker error', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('enqueue-early');
  const { pageErrors } = guardPage(page);
  // The preview never answers: the server action alone must name the field.
  await page.route('**/enqueue/preview', (route) => route.abort());
  await page.goto('/brokers/main/enqueue');
  await page.getByLabel('Task name', { exact: true }).fill('demo.add');
  await page.getByLabel('Queue', { exact: true }).fill(queue);
  await page
    .getByLabel('Keyword arguments (JSON object)', { exact: true })
    .fill('{"at": {"__potatoq__": "datetime", "v": "tomorrow 9am"}}');
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('error-kwargs')).toContainText('"tomorrow 9am" is not a valid datetime');
  await expect(page.getByText('BrokerUnavailable')).toHaveCount(0);
  await expect(page.getByTestId('enqueue-success')).toHaveCount(0);
  expect(queueJobs(main, queue)).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('the queue follows the task to its live worker, an unregistered name is held back, and typed entry reaches the worker typed', async ({
  page,
}) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('enqueue-route');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'enqueue-route-'));
  const worker = new SoloWorker('rt_tasks', path.join(ROOT, 'tests/py'), {
    ...process.env,
    RT_BROKER: `sqlite:///${main}`,
    RT_OUT: out,
    PYTHONUNBUFFERED: '1',
  });
  worker.start([queue]);
  const { pageErrors } = guardPage(page);
  try {
    await until(
      'the worker to report its queue',
      () => rows(main, 'SELECT id FROM potatoq_workers WHERE info LIKE ?', `%${queue}%`).length > 0,
      30_000,
      () => worker.log,
    );

    await page.goto('/brokers/main/enqueue');
    const queueBox = page.getByLabel('Queue', { exact: true });
    await page.getByLabel('Task name', { exact: true }).fill('rt.record');
    await expect(queueBox).toHaveValue(queue);
    await expect(page.getByText(`Follows the task: its workers consume ${queue}.`)).toBeVisible();

    await page.getByLabel('Task name', { exact: true }).fill('rt.recrod');
    await expect(page.getByTestId('warning-task')).toContainText('No live worker has registered rt.recrod');
    await expect(page.getByTestId('warning-task')).toContainText('Did you mean rt.record?');
    await page.getByTestId('enqueue-submit').click();
    await expect(page.getByTestId('enqueue-held')).toBeVisible();
    await page.screenshot({ path: 'test-results/enqueue-unknown-task.png', fullPage: true });
    expect(queueJobs(main, queue)).toEqual([]);

    await page.getByLabel('Task name', { exact: true }).fill('rt.record');
    await expect(page.getByTestId('warning-task')).toHaveCount(0);
    await page.getByTestId('typed-kwargs-kind').selectOption('datetime');
    await page.getByTestId('typed-kwargs-key').fill('at');
    await page.getByTestId('typed-kwargs-value').fill('2026-12-24T09:30');
    await page.getByTestId('typed-kwargs-insert').click();
    await page.getByTestId('typed-kwargs-kind').selectOption('decimal');
    await page.getByTestId('typed-kwargs-key').fill('amount');
    await page.getByTestId('typed-kwargs-value').fill('19.990');
    await page.getByTestId('typed-kwargs-insert').click();
    await expect(page.getByLabel('Keyword arguments (JSON object)', { exact: true })).toHaveValue(
      /^\{"at": \{"__potatoq__":"datetime","v":"2026-12-2[34]T\d\d:30:00\.000\+00:00"\}, "amount": \{"__potatoq__":"decimal","v":"19\.990"\}\}$/,
    );
    await expect(page.getByTestId('enqueue-preview')).toContainText('"amount":{"__potatoq__":"decimal","v":"19.990"}');
    await page.screenshot({ path: 'test-results/enqueue-route-typed.png', fullPage: true });
    await page.getByTestId('enqueue-submit').click();
    await expect(page.getByTestId('enqueue-success')).toContainText(`in ${queue}`);
    const id = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';

    // The real worker consuming the followed queue ran it with Python types.
    const ran = await until(
      'the worker to run the enqueued task',
      () => {
        const f = path.join(out, `${id}.json`);
        return fs.existsSync(f) && (JSON.parse(fs.readFileSync(f, 'utf8')) as { kwargs: Record<string, [string, string]> });
      },
      30_000,
      () => worker.log,
    );
    expect(ran.kwargs.at?.[0]).toBe('datetime');
    expect(ran.kwargs.amount).toEqual(['Decimal', "Decimal('19.990')"]);
  } finally {
    await worker.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
  expect(pageErrors).toEqual([]);
});

test('the queue follows where the broker has seen the task, and misspelt names need a confirmation', async ({ page, request }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('emails');
  const task = `shop.${uniqueQueue('email')}`;
  const typo = task.replace('shop.email', 'shop.emial');
  addTask(main, { task, queue });
  const { pageErrors } = guardPage(page);

  await page.goto('/brokers/main/enqueue');
  await page.getByLabel('Task name', { exact: true }).fill(task);
  await expect(page.getByLabel('Queue', { exact: true })).toHaveValue(queue);
  await expect(page.getByText(`Follows the task: seen in ${queue}.`)).toBeVisible();

  // A misspelt queue is said under its field, with the one meant, and holds the send.
  const wrongQueue = `${queue.slice(0, -1)}x${queue.slice(-1)}`;
  await page.getByLabel('Queue', { exact: true }).fill(wrongQueue);
  await expect(page.getByTestId('warning-queue-unseen')).toHaveText(
    `No queue named \`${wrongQueue}\` has been seen on this broker: did you mean \`${queue}\`?`,
  );
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-held')).toBeVisible();
  expect(queueJobs(main, wrongQueue)).toEqual([]);

  // A misspelt task: the same, until the operator confirms; then it is sent as typed.
  await page.getByTestId('warning-queue').getByRole('button', { name: 'Follow the task' }).click();
  await page.getByLabel('Task name', { exact: true }).fill(typo);
  await expect(page.getByTestId('warning-queue-unseen')).toHaveCount(0);
  // (Live workers of other specs may say first that none of them registered it.)
  await expect(page.getByTestId('warning-task')).toContainText(
    new RegExp(`did you mean \`${task.replace(/\./g, '\\.')}\`\\?|No live worker has registered`),
  );
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-held')).toBeVisible();
  await page.screenshot({ path: 'test-results/enqueue-misspelt-task.png', fullPage: true });
  expect(queueJobs(main, queue).map((j) => j.task)).toEqual([task]);
  await page.getByTestId('enqueue-ack-unknown').check();
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-success')).toContainText(`in ${queue}`);
  expect(
    queueJobs(main, queue)
      .map((j) => j.task)
      .sort(),
  ).toEqual([task, typo].sort());

  // The API refuses the misspelling under its field unless allowUnknown; without a queue the
  // task goes where it was seen.
  const refused = await request.post('/api/brokers/main/enqueue', { data: { task: typo.replace('emial', 'emil') } });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: { fields: Record<string, string> } }).error.fields.task).toContain(`did you mean \`${task}\``);
  const routed = await request.post('/api/brokers/main/enqueue', { data: { task } });
  expect(routed.status()).toBe(200);
  expect(((await routed.json()) as { queue: string }).queue).toBe(queue);
  expect(pageErrors).toEqual([]);
});
