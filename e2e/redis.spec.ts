import { expect, test } from '@playwright/test';
import { extraBrokers, extraStatus, redisSeed, requireService } from './brokers-extra';
import { brokerCard, guardPage } from './helpers';
import { redisClient, redisServerHere } from './services';

// The console on a potatoq Redis broker (db 11, a per-run `global_keyprefix`) next to the
// others: its overview, a queue in claim order, its dead letters and a replay, each asserted in
// the page and in Redis itself. Rows are written by the real potatoq's own scripts
// (tests/py/seeder_redis_contract.py). Screenshots land in test-results/redis-*.png.

test.beforeEach(() => {
  const why = extraStatus().redis;
  test.skip(!requireService(why === undefined ? 'global setup did not run' : why, 'Redis'), 'Redis is not available');
});

test('the overview shows the Redis broker with its counts, and its queue lists tasks in claim order', async ({ page }) => {
  const x = extraBrokers();
  const queue = x.redis.queues.overview;
  const { pageErrors } = guardPage(page);

  await page.goto('/');
  const card = brokerCard(page, 'redis');
  await expect(card).toHaveAttribute('data-state', 'ok');
  await expect(card.getByTestId('server-info')).toHaveText(
    new RegExp(`^(Redis|Valkey) \\d+\\.\\d+\\.\\d+ · db 11 · prefix "${x.redis.prefix}"$`),
  );
  // Seeded once by global setup: 2 ready, 1 scheduled, 1 dead letter.
  const row = card.locator(`[data-testid="queue-row"][data-queue="${queue}"]`);
  await expect(row.getByTestId('count-ready')).toHaveText('2');
  await expect(row.getByTestId('count-scheduled')).toHaveText('1');
  await expect(row.getByTestId('count-running')).toHaveText('0');
  await expect(row.getByTestId('count-dead')).toHaveText('1');
  await card.screenshot({ path: 'test-results/redis-overview.png' });

  await card.getByRole('link', { name: queue }).click();
  await expect(page.getByTestId('queue-name')).toHaveText(queue);
  const rows = page.getByTestId('task-row');
  await expect(rows).toHaveCount(2);
  // Priority 5 first: the order a worker claims them.
  await expect(rows.first()).toContainText('rt.record(1)');
  await expect(rows.nth(1)).toContainText('rt.record(2)');
  await page.screenshot({ path: 'test-results/redis-queue.png', fullPage: true });
  expect(pageErrors).toEqual([]);
});

test('a Redis dead letter is shown with its reason and replayed into its queue as ready, without its eta', async ({ page }) => {
  const x = extraBrokers();
  const queue = x.redis.queues.replay;
  const reason = 'Traceback (most recent call last):\n  File "/srv/app/tasks.py", line 7, in charge\nValueError: redis card declined\n';
  const [id] = redisSeed<string>(x, [{ op: 'dead_letter', task: 'rt.fail', queue, args: ['cus_rd'], countdown: 30, reason }]);
  const r = await redisClient(x.redis.url);
  const P = x.redis.prefix;
  try {
    expect(await r.hget(`${P}:job:${id}`, 'st')).toBe('dead');
    const { pageErrors } = guardPage(page);

    await page.goto(`/brokers/redis/dead?queue=${queue}`);
    const letter = page.locator(`[data-testid="dead-row"][data-id="${id}"]`);
    await expect(letter).toContainText('ValueError: redis card declined');
    await page.screenshot({ path: 'test-results/redis-dead.png', fullPage: true });
    await letter.getByRole('link').first().click();
    await expect(page.getByTestId('dead-detail')).toBeVisible();
    await expect(page.getByTestId('dead-reason')).toContainText('line 7, in charge');
    await expect(page.getByTestId('payload-args')).toContainText('cus_rd');
    await page.screenshot({ path: 'test-results/redis-dead-detail.png', fullPage: true });
    await page.getByTestId('action-replay').click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog.getByTestId('confirm-summary')).toContainText(queue);
    await expect(dialog).toContainText('eta dropped');
    await dialog.getByTestId('confirm-submit').click();
    await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();

    // In the page: the console takes us to the task, now ready.
    await expect(page).toHaveURL(new RegExp(`/brokers/redis/jobs/${id}$`));
    await expect(page.getByTestId('detail-state')).toHaveText(/ready/i);
    await page.screenshot({ path: 'test-results/redis-replayed.png', fullPage: true });
    // In Redis: the hash reset in place as ready, out of P:dead, in the queue's ready set, eta gone.
    expect(await r.hget(`${P}:job:${id}`, 'st')).toBe('ready');
    expect(await r.zscore(`${P}:dead`, id!)).toBeNull();
    expect(await r.zscore(`${P}:q:${queue}:ready`, id!)).not.toBeNull();
    const payload = JSON.parse((await r.hget(`${P}:job:${id}`, 'p'))!) as Record<string, unknown>;
    expect(payload).not.toHaveProperty('eta');
    expect(payload).toMatchObject({ task: 'rt.fail', id, queue, args: ['cus_rd'], v: 1 });
    expect(await r.exists(`${P}:result:${id}`)).toBe(0);
    expect(pageErrors).toEqual([]);
  } finally {
    r.disconnect();
  }
});

test('a Redis whose maxmemory-policy may evict tasks is called out on its card', async ({ page }) => {
  test.skip(!redisServerHere(), 'redis-server is not installed');
  const { spawn } = await import('node:child_process');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { freePort } = await import('../tests/support/free-port');
  const redisPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-evict-'));
  const redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--maxmemory-policy', 'allkeys-lru'],
    {
      stdio: 'ignore',
    },
  );
  const port = await freePort();
  const next = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: path.join(__dirname, '..'),
    env: {
      ...process.env,
      POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'lru', name: 'Evicting Redis', url: `redis://127.0.0.1:${redisPort}/0` }]),
      POTATOQ_CONSOLE_STATE: `${dir}/state.sqlite3`,
    },
    stdio: 'ignore',
  });
  try {
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 45_000 },
      )
      .toBe(200);
    await page.goto(`http://127.0.0.1:${port}/`);
    const card = brokerCard(page, 'lru');
    await expect(card.getByTestId('broker-warning')).toHaveText(/maxmemory-policy is 'allkeys-lru': Redis may silently evict queued tasks/);
    await card.screenshot({ path: 'test-results/redis-eviction-warning.png' });
  } finally {
    next.kill('SIGTERM');
    redis.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
