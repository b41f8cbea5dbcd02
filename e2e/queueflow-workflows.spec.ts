import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { api, qf } from './queueflow-api';
import { bigWorkflow, createWorkflows } from '../tests/queueflow/workflows-support';
import type { QueueflowServer } from '../tests/queueflow/support';
import { csvObjects } from '../tests/support/csv';

// The Workflows view in the browser against the REAL QueueFlow server 0.6.0: workflows created
// by the REAL Python client (WorkflowBuilder), their steps run through QueueFlow's worker API
// (lease, complete, fail: what its workers send), the retry checked in the server, the page
// following the run live, and a 300-step run drawn, usable, listed and exported.

const server = () => ({ url: qf().url!, token: qf().token! }) as QueueflowServer;

/** A worker's turn: lease the queue's next job and complete it with `result`, or fail it for good. */
async function work(queue: string, step: string, outcome: { result: Record<string, unknown> } | { error: string }): Promise<void> {
  const lease = await api<{ jobs: Array<{ job: { id: string; workflow_step_id?: string }; lease_token: string }> }>(
    'POST',
    `/api/v1/queues/${queue}/lease`,
    { max_jobs: 1, lease_secs: 60, wait_secs: 5 },
    qf().workerToken!,
  );
  const leased = lease.body.jobs[0]!;
  expect(leased.job.workflow_step_id).toBe(step);
  const r =
    'result' in outcome
      ? await api(
          'POST',
          `/api/v1/jobs/${leased.job.id}/complete`,
          { lease_token: leased.lease_token, result: outcome.result },
          qf().workerToken!,
        )
      : await api(
          'POST',
          `/api/v1/jobs/${leased.job.id}/fail`,
          { lease_token: leased.lease_token, error: outcome.error, retryable: false },
          qf().workerToken!,
        );
  expect(r.status).toBe(204);
}

const XSS = '<img src=x onerror="window.__xss=1">';

test('a failed QueueFlow workflow: its DAG, the failed step and what it blocks, a retry checked in the server, live to completion', async ({
  page,
}, info) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const queue = `e2ewf${randomBytes(3).toString('hex')}`;
  const name = `order-${queue}`;
  const [wf] = createWorkflows(server(), [
    {
      name,
      steps: [
        { name: 'prepare', task: 'shop.prepare', payload: { note: XSS }, queue },
        { name: 'charge', task: 'shop.charge', after: ['prepare'], queue },
        { name: 'ship', task: 'shop.ship', after: ['charge'], queue },
        { name: 'notify', task: 'shop.notify', after: ['ship'], queue },
      ],
    },
  ]);
  await work(queue, 'prepare', { result: { html: XSS } });
  await work(queue, 'charge', { error: 'card declined' });
  const { pageErrors } = guardPage(page);

  // The broker page names the failed run with its cause.
  await page.goto('/brokers/qf');
  const card = page.getByTestId('broker-workflows');
  await expect(card.getByTestId('failed-run').filter({ hasText: name })).toContainText("step 'charge' failed");
  await card.getByTestId('failed-run').filter({ hasText: name }).getByRole('link').click();

  await expect(page.getByTestId('run-status')).toHaveText('failed');
  const step = (n: string) => page.locator(`[data-testid="graph-step"][data-step="${n}"]`);
  await expect(step('charge')).toHaveAttribute('data-status', 'failed');
  await expect(step('ship')).toHaveAttribute('data-blocked', 'true');
  await expect(step('notify')).toHaveAttribute('data-blocked', 'true');
  await expect(step('prepare')).not.toHaveAttribute('data-blocked', 'true');
  // The failed step is selected first: its error and what it blocks.
  await expect(page.getByTestId('step-error')).toContainText('card declined');
  await expect(page.getByTestId('step-blocks')).toContainText('ship, notify');
  // Results render as text: the markup in prepare's result is shown, never run.
  await step('prepare').click();
  await expect(page.getByTestId('step-result')).toContainText(JSON.stringify(XSS));
  await expect(page.getByTestId('step-result').locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.getByTestId('step-job')).toBeVisible();
  await page.screenshot({ path: info.outputPath('queueflow-workflow-failed.png'), fullPage: true });

  // Retry: what it does and to how many, the typed name, a reason.
  await page.getByTestId('action-retry-workflow').click();
  const dialog = page.getByTestId('retry-dialog');
  await expect(dialog.getByTestId('retry-count')).toHaveText('3');
  await expect(dialog.getByTestId('confirm-summary')).toContainText('charge, ship, notify');
  await expect(dialog.getByTestId('confirm-submit')).toBeDisabled();
  await dialog.getByTestId('retry-confirm-input').fill(name);
  await dialog.getByLabel(/Reason/).fill('OPS-321 card processor fixed');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog.getByTestId('action-outcome')).toContainText('3 steps back to pending');
  const after = await api<{ status: string; retry_count: number }>('GET', `/api/v1/workflows/${wf!.id}`);
  expect(after.body).toMatchObject({ status: 'running', retry_count: 1 });
  await dialog.getByTestId('confirm-cancel').click();

  // The page follows the run while its steps finish, without a reload.
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await work(queue, 'charge', { result: { charged: true } });
  await work(queue, 'ship', { result: { shipped: true } });
  await work(queue, 'notify', { result: {} });
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 20_000 });
  await expect(step('notify')).toHaveAttribute('data-status', 'completed');
  expect(pageErrors).toEqual([]);
});

test('workflow ids that are malformed or unknown say so; a 300-step run is drawn and usable', async ({ page }) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const { pageErrors } = guardPage(page);
  await page.goto('/brokers/qf/workflows/not-a-workflow');
  await expect(page.getByText(/not a QueueFlow workflow id/)).toBeVisible();
  await page.goto('/brokers/qf/workflows/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText(/is not in this broker/)).toBeVisible();
  // A retry through the API of an unknown run changes nothing and says why.
  const r = await page.request.post('/api/brokers/qf/workflows/00000000-0000-4000-8000-000000000000/retry', {
    data: { confirm: 'x', reason: 'test' },
  });
  expect(r.status()).toBe(404);

  // A system without workflows says why, in its own words, on the page and through the API.
  await page.goto('/brokers/main/workflows');
  await expect(page.getByTestId('workflows-off')).toContainText('potatoq keeps no workflow runs');
  const off = await page.request.get('/api/brokers/main/workflows');
  expect(off.status()).toBe(501);

  const idle = `e2ewfbig${randomBytes(3).toString('hex')}`;
  const [big] = createWorkflows(server(), [bigWorkflow(`big-${idle}`, idle)]);
  const t = Date.now();
  await page.goto(`/brokers/qf/workflows/${big!.id}`);
  await expect(page.getByTestId('graph-step')).toHaveCount(300);
  const s299 = page.locator('[data-testid="graph-step"][data-step="s299"]');
  await s299.scrollIntoViewIfNeeded();
  await s299.click();
  await expect(page.getByTestId('step-panel')).toContainText('s299');
  expect(Date.now() - t).toBeLessThan(15_000);
  // The list shows it under its status.
  await page.goto('/brokers/qf/workflows?status=running');
  await expect(page.locator(`[data-testid="workflow-row"][data-id="${big!.id}"]`)).toBeVisible();
  // Its export holds the tab's runs, this one among them.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^workflows-qf-\d{8}T\d{6}\.csv$/);
  const runs = csvObjects(fs.readFileSync((await download.path())!, 'utf8'));
  expect(runs.find((r) => r.id === big!.id)).toMatchObject({ name: `big-${idle}`, status: 'running', stepCount: '300' });
  expect(runs.every((r) => r.status === 'running')).toBe(true);
  expect(pageErrors).toEqual([]);
});
