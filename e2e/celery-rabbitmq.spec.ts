import { expect, test, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { requireService } from './brokers-extra';
import {
  celeryRmqBroker,
  celeryRmqProblem,
  cleanupCeleryRmq,
  outDir,
  passiveCount,
  ranWith,
  resultOf,
  rmqCelery,
  startCeleryWorker,
  stopCeleryWorker,
} from './celery-rmq';
import { brokerCard, guardPage } from './helpers';
import { until } from './services';

// The console on a plain Celery 5.7 app whose broker is RabbitMQ (4.3, then 3.10) with a Redis
// result backend (db 7, the broker's own key prefix). Before the tests: the REAL Celery producer
// sends three messages to a queue no worker consumes (one with a countdown), and a REAL worker on
// a second queue fails two tasks (FAILURE records whose message carries markup). Every action is
// checked in the broker: the worker's own record of what it ran, the result backend, a passive
// declare. Queues and keys are this spec's (`ce2e-` names) and removed afterwards.

// Real workers and a page of every e2e broker: slower than the default 60 s on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
/** A flag file name that is also markup: the failure's message carries it into the traceback. */
const FLAG = (n: number) => `<img src=x onerror=alert(${n})>-${n}`;

for (const id of ['celery-rmq4', 'celery-rmq3']) {
  test.describe(id, () => {
    let worker: { proc: ChildProcess; log: () => string } | undefined;
    let waiting: string[] = [];
    let failures: string[] = [];
    const b = () => celeryRmqBroker(id);

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      const why = await celeryRmqProblem(b());
      if (!requireService(why, `${b().label} (Celery broker) with Redis`)) return;
      const { wait, work } = b().queues;
      // Idempotent: a retried group starts from nothing again.
      await cleanupCeleryRmq(b());
      fs.rmSync(outDir(b()), { recursive: true, force: true });
      waiting = rmqCelery<string>(b(), [
        { op: 'enqueue', task: 'orders.pack', queue: wait, args: [1] },
        { op: 'enqueue', task: 'orders.pack', queue: wait, args: [2] },
        { op: 'enqueue', task: 'orders.remind', queue: wait, args: ['later'], countdown: 3600 },
      ]);
      worker = startCeleryWorker(b());
      await until('the worker to declare its queue', async () => (await passiveCount(b(), work)) !== null, 60_000, worker.log);
      failures = rmqCelery<string>(b(), [
        { op: 'enqueue', task: 'ct.flaky', queue: work, args: [FLAG(1)] },
        { op: 'enqueue', task: 'ct.flaky', queue: work, args: [FLAG(2)] },
      ]);
      for (const f of failures)
        await until(`FAILURE of ${f}`, async () => (await resultOf(b(), f))?.status === 'FAILURE', 60_000, worker.log);
    });

    test.afterAll(async () => {
      await stopCeleryWorker(worker?.proc);
      if ((await celeryRmqProblem(b())) === null && process.env.POTATOQ_E2E_KEEP !== '1') await cleanupCeleryRmq(b());
    });

    test.beforeEach(() => {
      test.skip(failures.length === 0, `${id}: its broker is not available`);
    });

    test('the overview card shows its queues: ready by passive declare, ETAs among them with why, failures per queue', async ({ page }) => {
      const { wait, work } = b().queues;
      const { pageErrors } = guardPage(page);
      await page.goto('/');
      const card = brokerCard(page, id);
      await expect(card).toHaveAttribute('data-state', 'ok');
      await expect(card.getByTestId('server-info')).toContainText(`RabbitMQ ${b().label.split(' ')[1]}`);
      await expect(card.getByTestId('server-info')).toContainText('results in Redis');
      const waitRow = card.locator(`[data-testid="queue-row"][data-queue="${wait}"]`);
      // The countdown message waits among the ready ones until a worker reserves it.
      await expect(waitRow.getByTestId('count-ready')).toHaveText('3');
      // The model has no scheduled column here: its Ready column says ETAs are in it, and why.
      await expect(card.locator('th', { hasText: 'Ready (ETAs included)' })).toBeVisible();
      await expect(waitRow.getByTestId('count-scheduled')).toHaveCount(0);
      await expect(waitRow.getByTestId('oldest-age')).toHaveText('—');
      await expect(waitRow.getByTestId('count-dead')).toHaveText('0');
      const workRow = card.locator(`[data-testid="queue-row"][data-queue="${work}"]`);
      await expect(workRow.getByTestId('count-ready')).toHaveText('0');
      await expect(workRow.getByTestId('count-dead')).toHaveText('2');
      await expect(card).toContainText('a Celery ETA message waits in its queue among the ready ones');
      // That note names no column: this card has no Scheduled column to put a "—" in.
      await expect(card.getByTestId('count-note-scheduled')).not.toContainText('“—”');
      // Dead letters over time come from the records' date_done: a sparkline, not "Unsupported".
      await expect(card.getByTestId('sparkline-dead').locator('svg[role="img"]')).toBeVisible();
      await card.screenshot({ path: test.info().outputPath(`${id}-overview.png`) });
      expect(pageErrors).toEqual([]);
    });

    test('the queue page says in words why its waiting messages are counts only', async ({ page }) => {
      const { wait } = b().queues;
      const { pageErrors } = guardPage(page);
      await page.goto(`/brokers/${id}/queues/${wait}`);
      await expect(page.getByTestId('queue-name')).toHaveText(wait);
      await expect(page.getByTestId('tab-count-ready')).toHaveText('3');
      await expect(page.getByRole('main')).toContainText("RabbitMQ can't show queued messages without taking them from the workers");
      await expect(page.getByRole('main')).toContainText('counts only');
      await expect(page.getByTestId('task-row')).toHaveCount(0);
      await shot(page, `${id}-counts-only`);
      // Reading the page took nothing from the queue.
      expect(await passiveCount(b(), wait)).toBe(3);
      expect(pageErrors).toEqual([]);
    });

    test("the real worker's failures are listed and grouped, and a failure's traceback is inert text", async ({ page }) => {
      const { work } = b().queues;
      const { pageErrors } = guardPage(page);
      await page.goto(`/brokers/${id}/dead?queue=${work}`);
      await expect(page.getByTestId('dead-row')).toHaveCount(2);
      for (const f of failures) await expect(page.locator(`[data-testid="dead-row"][data-id="${f}"]`)).toContainText('ct.flaky');
      const group = page.getByTestId('dead-group');
      await expect(group).toHaveCount(1);
      await expect(group).toContainText('ValueError');
      await expect(page.getByTestId('dead-group-count')).toHaveText('2');
      // The chart counts both by their date_done, as the API does.
      const trend = (await (await page.request.get(`/api/brokers/${id}/trends/dead?range=day&queue=${work}`)).json()) as {
        counts: number[];
        total: number;
      };
      expect(trend.total).toBe(2);
      await expect(page.getByTestId('trend-dead').getByTestId('trend-summary')).toContainText(`highest ${Math.max(...trend.counts)}`);
      await shot(page, `${id}-failures`);

      await page.goto(`/brokers/${id}/dead/${failures[0]}`);
      const detail = page.getByTestId('dead-detail');
      await expect(detail).toContainText('Traceback (most recent call last)');
      await expect(detail).toContainText(`ValueError: flag ${FLAG(1)} is not set`);
      await expect(page.getByTestId('payload-args')).toContainText(FLAG(1));
      // The markup is text: no element was made of it, and its handler never ran (guardPage).
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      await shot(page, `${id}-failure`);
      expect(pageErrors).toEqual([]);
    });

    test('replay sends the failed task again and the real worker runs it', async ({ page }) => {
      const f = failures[0]!;
      const { pageErrors } = guardPage(page);
      // What made it fail is fixed: the flag file exists now.
      fs.writeFileSync(path.join(outDir(b()), FLAG(1)), '1');
      await page.goto(`/brokers/${id}/dead/${f}`);
      await page.getByTestId('action-replay').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.getByTestId('confirm-reason').fill('e2e: replay a Celery failure on RabbitMQ');
      await dialog.getByTestId('confirm-submit').click();
      await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
      await until('the replayed task to run', async () => ranWith(b(), f), 30_000, worker?.log);
      expect(ranWith(b(), f)?.args).toEqual([['str', `'${FLAG(1)}'`]]);
      await until('SUCCESS', async () => (await resultOf(b(), f))?.status === 'SUCCESS', 30_000, worker?.log);
      await shot(page, `${id}-replayed`);
      // The other failure is still listed, alone.
      await page.goto(`/brokers/${id}/dead?queue=${b().queues.work}`);
      await expect(page.getByTestId('dead-row')).toHaveCount(1);
      await expect(page.locator(`[data-testid="dead-row"][data-id="${failures[1]}"]`)).toBeVisible();
      expect(pageErrors).toEqual([]);
    });

    test('revoke is a broadcast: the worker drops the ETA task it holds, and the pages say what they can', async ({ page }) => {
      const { work } = b().queues;
      const { pageErrors } = guardPage(page);
      const log = () => worker?.log() ?? '';
      const [victim] = rmqCelery<string>(b(), [{ op: 'enqueue', task: 'ct.record', queue: work, args: ['victim'], countdown: 15 }]);
      const due = Date.now() + 15_000;
      await until('the worker to hold it until its ETA', () => log().includes(`ct.record[${victim}] received`), 20_000, log);
      // A message on RabbitMQ has no page and no revoke button (no browse), so the revoke goes
      // through the API: the same service call a button makes.
      const res = await page.request.post(`/api/brokers/${id}/tasks/revoke`, {
        data: { ids: [victim], reason: 'e2e: revoke on RabbitMQ' },
      });
      expect(res.status()).toBe(200);
      const outcome = (await res.json()) as { succeeded: { id: string }[]; failed: unknown[] };
      expect(outcome.succeeded.map((o) => o.id)).toEqual([victim]);
      expect(JSON.stringify(outcome)).toContain('the message stays in RabbitMQ');
      await until('REVOKED from the worker', async () => (await resultOf(b(), victim!))?.status === 'REVOKED', 20_000, log);

      await page.goto(`/brokers/${id}/jobs/${victim}`);
      await expect(page.getByTestId('error-box')).toContainText("RabbitMQ can't show queued messages");
      await expect(page.getByTestId('action-revoke')).toHaveCount(0);
      await shot(page, `${id}-task-page`);
      // Find-by-id shows the record the worker stored.
      await page.goto(`/find?id=${victim}`);
      await expect(page.locator(`[data-broker="${id}"]`).getByTestId('find-hit-state')).toContainText('REVOKED');
      await expect(page.getByTestId('find-audit-entry').first()).toContainText('e2e: revoke on RabbitMQ');
      await shot(page, `${id}-revoked`);

      // Its ETA passes and the worker drops it: it never runs, and the worker goes on.
      await until('the ETA to pass', () => Date.now() > due + 1000, 30_000);
      const [after] = rmqCelery<string>(b(), [{ op: 'enqueue', task: 'ct.record', queue: work, args: ['after'] }]);
      await until('the task after it to run', async () => ranWith(b(), after!), 30_000, log);
      expect(log()).toContain(`Discarding revoked task: ct.record[${victim}]`);
      expect(ranWith(b(), victim!)).toBeNull();
      expect(pageErrors).toEqual([]);
    });

    test('enqueue through the form: a bad field is refused under it; a valid task is run by the worker with its arguments', async ({
      page,
    }) => {
      const { work } = b().queues;
      const { pageErrors } = guardPage(page);
      await page.goto(`/brokers/${id}/enqueue`);
      await page.getByLabel('Task name', { exact: true }).fill('ct.record');
      await page.getByLabel('Queue', { exact: true }).fill(work);
      const args = page.getByLabel('Arguments (JSON list)', { exact: true });
      await args.fill('{"not": "a list"}');
      await page.getByTestId('enqueue-submit').click();
      await expect(page.getByTestId('error-args')).toContainText('must be a JSON list');
      await expect(args).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByTestId('error-kwargs')).toHaveCount(0);
      await expect(page.getByTestId('enqueue-success')).toHaveCount(0);
      await shot(page, `${id}-enqueue-bad`);

      await args.fill('[7, {"__type__": "decimal", "__value__": "9.90"}]');
      await page.getByLabel('Keyword arguments (JSON object)', { exact: true }).fill('{"note": "<b>gift</b>"}');
      await page.getByTestId('enqueue-submit').click();
      await expect(page.getByTestId('enqueue-success')).toBeVisible();
      await expect(page.getByTestId('error-args')).toHaveCount(0);
      const newId = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';
      expect(newId).toMatch(/^[0-9a-f-]{36}$/);
      await until('the worker to run it', async () => ranWith(b(), newId), 30_000, worker?.log);
      expect(ranWith(b(), newId)).toEqual({
        args: [
          ['int', '7'],
          ['Decimal', "Decimal('9.90')"],
        ],
        kwargs: { note: ['str', "'<b>gift</b>'"] },
      });
      await shot(page, `${id}-enqueued`);
      expect(pageErrors).toEqual([]);
    });

    test('purge empties the ready messages of a queue, checked by a passive declare', async ({ page }) => {
      const { wait } = b().queues;
      const { pageErrors } = guardPage(page);
      expect(await passiveCount(b(), wait)).toBe(3);
      await page.goto(`/brokers/${id}/queues/${wait}`);
      await page.getByTestId('action-purge').click();
      const dialog = page.getByTestId('purge-dialog');
      await expect(dialog.getByTestId('purge-count')).toContainText('3');
      await dialog.getByTestId('purge-confirm-input').fill(wait);
      await dialog.getByTestId('confirm-reason').fill('e2e: purge a Celery queue on RabbitMQ');
      await dialog.getByTestId('confirm-submit').click();
      await expect(dialog.getByTestId('action-outcome')).toContainText('Removed 3');
      await shot(page, `${id}-purged`);
      // The queue is still there, empty.
      expect(await passiveCount(b(), wait)).toBe(0);
      expect(waiting).toHaveLength(3);
      expect(pageErrors).toEqual([]);
    });
  });
}
