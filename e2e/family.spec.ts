import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { e2eBrokers } from './brokers';
import { extraBrokers, extraStatus, requireService } from './brokers-extra';
import { guardPage } from './helpers';
import { SoloWorker, until } from '../tests/support/solo-worker';
import { spawnCeleryWorker } from '../tests/support/celery-worker';
import { Redis } from 'ioredis';

// The task family panel, with real workers: potatoq (the main SQLite broker) and Celery (the
// Redis broker and backend) each run a chord whose middle part fails. The dead letter's page
// shows its chord, its parts done/total and the callback it blocks; the operator replays the
// part from the family, and the replay is checked in the broker, then in the family again.

const ROOT = path.resolve(__dirname, '..');
const PY = path.join(ROOT, 'tests/py');
const tag = () => `fam${Math.random().toString(36).slice(2, 8)}`;

function sqlite<T>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

test('potatoq: the failed chord part shows its chord and the callback it blocks; replayed from the family, it runs', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = tag();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fam-e2e-'));
  const env = { ...process.env, RT_BROKER: `sqlite:///${main}`, FAM_OUT: out, PYTHONUNBUFFERED: '1' };
  const { callback } = JSON.parse(
    execFileSync(path.join(ROOT, '.venv/bin/python'), ['fam_produce.py', queue], { cwd: PY, env }).toString(),
  ) as {
    callback: string;
  };
  const [flaky] = sqlite<{ id: string }>(main, "SELECT id FROM potatoq_jobs WHERE queue = ? AND task = 'fam.flaky'", queue);
  const worker = new SoloWorker('fam_tasks', PY, env);
  worker.start([queue]);
  const { pageErrors } = guardPage(page);
  try {
    await until(
      'the flaky part to die',
      () => sqlite(main, 'SELECT 1 FROM potatoq_dead WHERE id = ?', flaky!.id).length > 0,
      30_000,
      () => worker.log,
    );
    await until(
      'the callback to fail',
      () => sqlite(main, "SELECT 1 FROM potatoq_results WHERE id = ? AND state = 'FAILURE'", callback).length > 0,
    );

    await page.goto(`/brokers/main/dead/${flaky!.id}`);
    const panel = page.getByTestId('family-panel');
    await expect(panel.getByTestId('family-group-progress')).toHaveText('3/3 parts done, 1 failed');
    const block = panel.getByTestId('family-block');
    await expect(block).toContainText('ChordError');
    await expect(block.locator(`[data-testid="family-member"][data-id="${callback}"]`)).toHaveAttribute('data-status', 'failed');

    fs.writeFileSync(path.join(out, `${flaky!.id}.ok`), '');
    await block.getByTestId('action-replay').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.getByTestId('confirm-submit').click();
    await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
    // In the broker: the letter is gone and the worker ran the part.
    await until(
      'the replayed part to succeed',
      () => sqlite(main, "SELECT 1 FROM potatoq_results WHERE id = ? AND state = 'SUCCESS'", flaky!.id).length > 0,
    );
    expect(sqlite(main, 'SELECT 1 FROM potatoq_dead WHERE id = ?', flaky!.id)).toEqual([]);

    // The family again, from the task's page: the part succeeded, nothing blocked by it any more.
    await page.goto(`/brokers/main/jobs/${flaky!.id}`);
    await expect(page.getByTestId('family-panel').locator(`[data-testid="family-member"][data-id="${flaky!.id}"]`).first()).toHaveAttribute(
      'data-status',
      'succeeded',
    );
    await expect(page.getByTestId('family-blocks')).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  } finally {
    await worker.stop();
  }
});

test('Celery: a waiting chord part shows the failed part and the callback it blocks; replayed from the family, it runs', async ({
  page,
}) => {
  const why = extraStatus().celery;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis (Celery broker)'), 'Redis is not available');
  const x = extraBrokers().celery;
  const queue = tag();
  const held = `${queue}held`;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fam-e2e-celery-'));
  const env = { ...process.env, CT_BROKER: x.broker, CT_BACKEND: x.backend, FAM_OUT: out, PYTHONUNBUFFERED: '1' };
  const ids = JSON.parse(
    execFileSync(path.join(ROOT, '.venv/bin/python'), ['fam_celery_send.py', queue, held], { cwd: PY, env }).toString(),
  ) as { chord: { callback: string; parts: string[] } };
  const [, flaky, waiting] = ids.chord.parts as [string, string, string];
  const worker = spawnCeleryWorker(env, [queue], `fam-${queue}`, ['-P', 'solo'], 'fam_celery_app');
  const backend = new Redis(x.backend);
  const status = async (id: string) => {
    const raw = await backend.get(`celery-task-meta-${id}`);
    return raw ? (JSON.parse(raw) as { status: string }).status : null;
  };
  const { pageErrors } = guardPage(page);
  try {
    await until('the flaky part to fail', async () => (await status(flaky)) === 'FAILURE', 60_000, worker.log);

    await page.goto(`/brokers/celery/jobs/${waiting}`);
    const panel = page.getByTestId('family-panel');
    await expect(panel.getByTestId('family-group-progress')).toHaveText(/^2\/(—|3) parts done, 1 failed$/);
    const block = panel.getByTestId('family-block');
    await expect(block.locator(`[data-testid="family-member"][data-id="${ids.chord.callback}"]`)).toBeVisible();
    await expect(block).toContainText('ChordError');

    fs.writeFileSync(path.join(out, `${flaky}.ok`), '');
    await block.getByTestId('action-replay').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.getByTestId('confirm-submit').click();
    await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
    // In the backend: the worker ran the replayed part.
    await until('the replayed part to succeed', async () => (await status(flaky)) === 'SUCCESS', 60_000, worker.log);
    await page.goto(`/brokers/celery/jobs/${waiting}`);
    await expect(page.getByTestId('family-panel').locator(`[data-testid="family-member"][data-id="${flaky}"]`).first()).toHaveAttribute(
      'data-status',
      'succeeded',
    );
    await expect(page.getByTestId('family-blocks')).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  } finally {
    worker.proc.kill('SIGTERM');
    backend.disconnect();
  }
});

test('QueueFlow says why it shows no task family', async ({ page }) => {
  const res = await page.request.get('/api/brokers');
  const brokers = ((await res.json()) as { brokers: { id: string; system: string }[] }).brokers;
  const qf = brokers.find((b) => b.system === 'queueflow');
  test.skip(!qf, 'no QueueFlow broker in this run');
  const api = await page.request.get(`/api/brokers/${qf!.id}/family/1`);
  expect(api.status()).toBe(501);
  expect(((await api.json()) as { error: { code: string; message: string } }).error).toMatchObject({
    code: 'Unsupported',
    message: expect.stringContaining('Workflows view'),
  });
});
