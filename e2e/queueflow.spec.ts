import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { requireService } from './brokers-extra';
import { brokerCard, guardPage } from './helpers';
import { api, deadLetter, qf } from './queueflow-api';

// A QueueFlow broker in the browser, against the REAL server 0.6.0 (e2e/queueflow-server.ts):
// seeded natively through QueueFlow's producer and worker API, checked in the page and in the
// server. Screenshots go to test-results/queueflow-*.png.

test('a QueueFlow broker: overview, dead letters with their reason, a replay and a second replay', async ({ page }, info) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const queue = `e2eqf${randomBytes(3).toString('hex')}`;
  // The letter first: a lease takes the oldest claimable job of the queue.
  const { letter } = await deadLetter(queue, 'billing.refund', 'refused: payload n=5 is not valid');
  for (const n of [1, 2]) await api('POST', '/api/v1/jobs', { task_name: 'billing.charge', payload: { n }, config: { queue } });
  // One job for later: QueueFlow counts it `scheduled`, apart from the claimable ones.
  const later = new Date(Date.now() + 3_600_000).toISOString();
  await api('POST', '/api/v1/jobs', { task_name: 'billing.remind', payload: {}, config: { queue }, run_at: later });
  const { pageErrors } = guardPage(page);

  await page.goto('/');
  const card = brokerCard(page, 'qf');
  await expect(card).toContainText('Flows (QueueFlow)');
  // The system is named apart from its store, from the adapter's declaration.
  await expect(card.getByTestId('broker-badge')).toHaveText('QueueFlow · PostgreSQL');
  // Dead letters over time come from each letter's created_at: a sparkline, not "Unsupported".
  await expect(card.getByTestId('sparkline-dead').locator('svg[role="img"]')).toBeVisible();
  // QueueFlow keeps no worker registry: the card says so in the adapter's words, never "0 live workers".
  await expect(card.getByTestId('workers-untracked')).toHaveText('workers not tracked');
  await expect(card.getByTestId('workers-untracked-why')).toContainText('no worker registry');
  await expect(card.getByTestId('workers-alive')).toHaveCount(0);
  await card.getByRole('link', { name: queue }).click();
  await expect(page.getByTestId('queue-name')).toHaveText(queue);
  await page.screenshot({ path: info.outputPath('queueflow-queue.png'), fullPage: true });
  // Pause and resume: in the page and in the server's queue registry.
  const paused = async () =>
    (await api<{ queues: Array<{ queue: string; paused: boolean }> }>('GET', '/api/v1/queues')).body.queues.find((x) => x.queue === queue)
      ?.paused;
  await page.getByTestId('action-pause').click();
  await expect(page.getByTestId('queue-paused-badge')).toBeVisible();
  await expect(page.getByTestId('action-pause')).toHaveText('Resume queue');
  expect(await paused()).toBe(true);
  await page.screenshot({ path: info.outputPath('queueflow-paused.png'), fullPage: true });
  await page.getByTestId('action-pause').click();
  await expect(page.getByTestId('action-pause')).toHaveText('Pause queue');
  await expect(page.getByTestId('queue-paused-badge')).toHaveCount(0);
  expect(await paused()).toBe(false);

  // The Workers page speaks QueueFlow's words: no registry, never potatoq's heartbeats or command.
  await page.goto('/brokers/qf/workers');
  await expect(page.locator('main')).toContainText("QueueFlow's API has no worker registry");
  await expect(page.locator('main')).not.toContainText('potatoq');

  await page.goto('/brokers/qf');
  const row = page.locator(`[data-testid="queue-row"][data-queue="${queue}"]`);
  await expect(row.getByTestId('count-pending')).toHaveText('2');
  await expect(row.getByTestId('count-scheduled')).toHaveText('1');
  await expect(row.getByTestId('count-dead')).toHaveText('1');
  // The header totals follow the declared states, in their order.
  await expect(page.getByTestId('broker-queues')).toContainText(/pending · \d+ scheduled · \d+ retrying · \d+ running · \d+ dead/);
  // The job for later is on the Scheduled tab, with its run time; Pending holds the other two.
  await page.goto(`/brokers/qf/queues/${queue}?state=scheduled`);
  await expect(page.getByTestId('tab-count-scheduled')).toHaveText('1');
  await expect(page.getByTestId('task-row')).toHaveCount(1);
  await expect(page.getByTestId('task-row')).toContainText('billing.remind');
  await page.goto(`/brokers/qf/queues/${queue}?state=pending`);
  await expect(page.getByTestId('task-row')).toHaveCount(2);
  await page.screenshot({ path: info.outputPath('queueflow-overview.png'), fullPage: true });

  await page.goto(`/brokers/qf/dead?queue=${queue}`);
  const dead = page.locator(`[data-testid="dead-row"][data-id="${letter}"]`);
  await expect(dead).toContainText('refused: payload n=5 is not valid');
  await expect(dead.getByTestId('dead-cause')).toHaveText('non_retryable');
  await expect(page.getByTestId('trend-dead').getByTestId('trend-summary')).toContainText('highest 1');
  await page.screenshot({ path: info.outputPath('queueflow-dead.png'), fullPage: true });

  await dead.getByRole('link').first().click();
  await expect(page.getByTestId('dead-detail')).toBeVisible();
  await expect(page.getByTestId('detail-cause')).toContainText('non_retryable');
  await expect(page.getByTestId('action-discard')).toBeDisabled();
  await page.getByTestId('action-replay').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('creates a new pending job');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();

  // In the server: the letter is marked with its new job, which is pending in the same queue.
  const marked = await api<{ replay_job_id?: string }>('GET', `/api/v1/dlq/${letter}`);
  const replay = marked.body.replay_job_id!;
  expect(replay).toMatch(/^[0-9a-f-]{36}$/);
  expect((await api<{ status: string; queue_name: string; payload: unknown }>('GET', `/api/v1/jobs/${replay}`)).body).toMatchObject({
    status: 'pending',
    queue_name: queue,
    payload: { n: 5 },
  });
  // In the page: the console goes to the new job.
  await expect(page).toHaveURL(new RegExp(`/jobs/${replay}$`));
  await expect(page.getByTestId('detail-state')).toHaveText(/pending/i);
  await page.screenshot({ path: info.outputPath('queueflow-replayed-job.png'), fullPage: true });

  // A second replay: QueueFlow would refuse it, so the letter declares it off and the buttons say
  // why; the console's API refuses it in the same words ("already replayed as job X", not an error).
  const why = `already replayed as job ${replay}; QueueFlow replays a letter once`;
  await page.goto(`/brokers/qf/dead/${letter}`);
  await expect(page.getByTestId('detail-replayed')).toContainText(replay);
  await expect(page.getByTestId('action-replay')).toBeDisabled();
  await expect(page.getByTestId('action-replay')).toHaveAttribute('title', why);
  await expect(page.getByTestId('edit-open')).toBeDisabled();
  await page.screenshot({ path: info.outputPath('queueflow-second-replay.png'), fullPage: true });
  const again = await page.request.post('/api/brokers/qf/dead/replay', { data: { ids: [letter], queue } });
  expect(again.status()).toBe(200);
  expect(await again.json()).toMatchObject({ succeeded: [], failed: [{ id: letter, outcome: 'already', message: why, taskId: replay }] });
  const jobs = await api<{ jobs: unknown[] }>('GET', `/api/v1/jobs?queue=${queue}&status=pending`);
  // The two jobs, the replay's, and the job for later (pending in QueueFlow, scheduled here).
  expect(jobs.body.jobs).toHaveLength(4);
  expect(pageErrors).toEqual([]);
});

test('a job created in the console with its payload and settings, and a payload QueueFlow cannot take shown on its field', async ({
  page,
}) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const queue = `e2eqfe${randomBytes(3).toString('hex')}`;
  const { pageErrors } = guardPage(page);
  await page.goto('/brokers/qf/enqueue');
  await page.getByLabel('Task name', { exact: true }).fill('billing.invoice');
  await page.getByLabel('Queue', { exact: true }).fill(queue);
  await page.getByLabel('Payload (JSON object)', { exact: true }).fill('[1, 2]');
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('error-payload')).toBeVisible();
  await expect(page.getByTestId('enqueue-success')).toHaveCount(0);
  await page.getByLabel('Payload (JSON object)', { exact: true }).fill('{"invoice": 42, "note": "<b>x</b>"}');
  await page.getByLabel('Priority', { exact: true }).fill('7');
  await expect(page.getByTestId('enqueue-preview')).toContainText('"task_name": "billing.invoice"');
  await page.screenshot({ path: test.info().outputPath('queueflow-enqueue.png'), fullPage: true });
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-success')).toBeVisible();
  const id = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';
  // In the server: a pending job with exactly that payload, priority and queue.
  const job = await api<{ status: string; queue_name: string; task_name: string; payload: unknown; config: { priority: number } }>(
    'GET',
    `/api/v1/jobs/${id}`,
  );
  expect(job.status).toBe(200);
  expect(job.body).toMatchObject({
    status: 'pending',
    queue_name: queue,
    task_name: 'billing.invoice',
    payload: { invoice: 42, note: '<b>x</b>' },
    config: { priority: 7 },
  });

  // An idempotency key: the preview shows the header that carries it; QueueFlow answers a repeat
  // with its earlier job, which the page reports as such (nothing enqueued), not as "Enqueued".
  const key = `e2e-key-${randomBytes(3).toString('hex')}`;
  await page.getByText('More options').click();
  await page.getByLabel('Idempotency key', { exact: true }).fill(key);
  await expect(page.getByTestId('enqueue-preview')).toContainText(`Idempotency-Key: ${key}`);
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-success')).toContainText('Enqueued as');
  const keyed = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';
  expect(keyed).not.toBe(id);
  await page.getByTestId('enqueue-submit').click();
  await expect(page.getByTestId('enqueue-already')).toContainText(`already exists as job ${keyed} (idempotency key "${key}"`);
  await expect(page.getByTestId('enqueue-new-id')).toHaveText(keyed);
  const listed = await api<{ jobs: Array<{ id: string }> }>('GET', `/api/v1/jobs?queue=${queue}&status=pending&limit=100`);
  expect(listed.body.jobs.map((j) => j.id).sort()).toEqual([id, keyed].sort());
  // The audit trail records the repeat as `already`, not as a second enqueue.
  const trail = (await (await page.request.get(`/api/audit?broker=qf&task=${keyed}`)).json()) as {
    entries: Array<{ action: string; results: Array<{ id: string; outcome: string }> }>;
  };
  expect(
    trail.entries.filter((e) => e.action === 'enqueue' && e.results.some((r) => r.id === keyed)).map((e) => e.results[0]!.outcome),
  ).toEqual(['already', 'ok']);
  await page.screenshot({ path: test.info().outputPath('queueflow-enqueue-again.png'), fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('edit and replay: the letter links the job that carries the edit, and Replay is off with why', async ({ page }, info) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const queue = `e2eqfx${randomBytes(3).toString('hex')}`;
  const to = `${queue}new`;
  const { letter } = await deadLetter(queue, 'billing.refund', 'refused: wrong queue');
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/qf/dead/${letter}`);
  const panel = page.getByTestId('edit-replay');
  await panel.getByTestId('edit-open').click();
  await panel.getByTestId('edit-queue').fill(to);
  await panel.getByTestId('edit-preview').click();
  await panel.getByTestId('confirm-reason').fill('e2e: route to the new queue');
  await panel.getByTestId('edit-confirm').click();
  await expect(panel.getByTestId('edit-outcome')).toHaveAttribute('data-outcome', 'ok');
  // In the server: the letter records QueueFlow's copy, cancelled; the edited job waits on the new queue.
  const copy = (await api<{ replay_job_id: string }>('GET', `/api/v1/dlq/${letter}`)).body.replay_job_id;
  expect((await api<{ status: string }>('GET', `/api/v1/jobs/${copy}`)).body.status).toBe('cancelled');
  const onNew = await api<{ jobs: Array<{ id: string; idempotency_key?: string }> }>('GET', `/api/v1/jobs?queue=${to}&status=pending`);
  expect(onNew.body.jobs.map((j) => j.idempotency_key)).toEqual([`console-edit-dlq-${letter}`]);
  const edited = onNew.body.jobs[0]!.id;
  // In the page: "Replayed as" the edited job, and Replay and Edit off with why.
  await page.goto(`/brokers/qf/dead/${letter}`);
  const link = page.getByTestId('detail-replayed').getByRole('link');
  await expect(link).toHaveText(edited);
  await expect(link).toHaveAttribute('href', `/brokers/qf/jobs/${edited}`);
  const why = `already replayed as job ${edited}; QueueFlow replays a letter once`;
  await expect(page.getByTestId('action-replay')).toHaveAttribute('title', why);
  await expect(page.getByTestId('action-replay')).toBeDisabled();
  await expect(page.getByTestId('edit-open')).toBeDisabled();
  await page.goto(`/brokers/qf/dead?queue=${queue}`);
  await expect(page.locator(`[data-testid="dead-row"][data-id="${letter}"]`).getByTestId('dead-replayed')).toContainText(edited);
  await page.screenshot({ path: info.outputPath('queueflow-edit-replayed.png'), fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('the results page shows every finished job by default, newest first, and says so', async ({ page }) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const queue = `e2eqfr${randomBytes(3).toString('hex')}`;
  const { job: failed } = await deadLetter(queue, 'billing.refund', 'refused');
  const { body } = await api<{ job_id: string }>('POST', '/api/v1/jobs', { task_name: 'billing.void', payload: {}, config: { queue } });
  expect((await api('POST', `/api/v1/jobs/${body.job_id}/cancel`)).status).toBe(204);
  const { pageErrors } = guardPage(page);
  await page.goto('/brokers/qf/results');
  await expect(page.getByTestId('results-filter-note')).toContainText('Showing every finished job, newest first');
  const rows = page.getByTestId('result-row');
  await expect(rows.first()).toHaveAttribute('data-id', body.job_id);
  await expect(rows.nth(1)).toHaveAttribute('data-id', failed);
  await expect(rows.first()).toContainText('CANCELLED');
  await expect(rows.nth(1)).toContainText('FAILED');
  await page.getByTestId('filter-status').fill('failed');
  await page.getByTestId('filter-apply').click();
  await expect(page.locator(`[data-testid="result-row"][data-id="${body.job_id}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-testid="result-row"][data-id="${failed}"]`)).toBeVisible();
  expect(pageErrors).toEqual([]);
});
