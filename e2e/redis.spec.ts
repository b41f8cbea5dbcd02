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
  const next = spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port), '--keepAliveTimeout', '65000'],
    {
      cwd: path.join(__dirname, '..'),
      env: {
        ...process.env,
        POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'lru', name: 'Evicting Redis', url: `redis://127.0.0.1:${redisPort}/0` }]),
        POTATOQ_CONSOLE_STATE: `${dir}/state.sqlite3`,
      },
      stdio: 'ignore',
    },
  );
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

test('on Redis: revoke a waiting task, discard a dead letter, purge a queue and enqueue by name, each checked in Redis', async ({
  page,
}) => {
  const x = extraBrokers();
  const P = x.redis.prefix;
  const stamp = Date.now().toString(36);
  const [rq, pq, eq] = [`rdrevoke${stamp}`, `rdpurge${stamp}`, `rdenq${stamp}`];
  const [revoked, keep, dead, ...purged] = redisSeed<string>(x, [
    { op: 'enqueue', task: 'rt.record', queue: rq, args: [1] },
    { op: 'enqueue', task: 'rt.record', queue: rq, args: [2] },
    { op: 'dead_letter', task: 'rt.fail', queue: rq, args: ['x'], reason: 'ValueError: discard me\n' },
    { op: 'enqueue', task: 'rt.record', queue: pq, args: [3] },
    { op: 'enqueue', task: 'rt.record', queue: pq, args: [4], countdown: 3600 },
  ]);
  const r = await redisClient(x.redis.url);
  const { pageErrors } = guardPage(page);
  try {
    // Revoke from the task's page: asked first, then gone from its queue with potatoq's REVOKED record.
    await page.goto(`/brokers/redis/jobs/${revoked}`);
    await page.getByTestId('action-revoke').click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog.getByTestId('confirm-summary')).toContainText('1');
    await dialog.getByTestId('confirm-reason').fill('e2e: revoke on redis');
    await dialog.getByTestId('confirm-submit').click();
    await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
    await dialog.getByTestId('confirm-cancel').click();
    await expect(page.getByTestId('detail-state')).toHaveText('revoked');
    await expect(page.getByTestId('action-revoke')).toHaveCount(0);
    await page.screenshot({ path: 'test-results/redis-revoked.png', fullPage: true });
    expect(await r.exists(`${P}:job:${revoked}`)).toBe(0);
    expect(await r.zscore(`${P}:q:${rq}:ready`, revoked!)).toBeNull();
    expect(JSON.parse((await r.get(`${P}:result:${revoked}`))!)).toMatchObject({ status: 'REVOKED' });
    expect(await r.hget(`${P}:job:${keep}`, 'st')).toBe('ready');

    // Discard a dead letter: gone from P:dead and its task hash, nothing requeued.
    await page.goto(`/brokers/redis/dead/${dead}`);
    await expect(page.getByTestId('dead-reason')).toContainText('discard me');
    await page.getByTestId('action-discard').click();
    await dialog.getByTestId('confirm-reason').fill('e2e: discard on redis');
    await dialog.getByTestId('confirm-submit').click();
    await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
    expect(await r.zscore(`${P}:dead`, dead!)).toBeNull();
    expect(await r.exists(`${P}:job:${dead}`)).toBe(0);
    expect(await r.zcard(`${P}:q:${rq}:ready`)).toBe(1);

    // Purge: the count before typing, then exactly those two gone, the other queue untouched.
    await page.goto(`/brokers/redis/queues/${pq}`);
    await page.getByTestId('action-purge').click();
    const purge = page.getByTestId('purge-dialog');
    await expect(purge.getByTestId('purge-count')).toHaveText('1 ready and 1 scheduled right now');
    await purge.getByTestId('purge-confirm-input').fill(pq);
    await purge.getByTestId('confirm-reason').fill('e2e: purge on redis');
    await purge.getByTestId('confirm-submit').click();
    await expect(purge.getByTestId('action-outcome')).toContainText('Removed 2 waiting tasks');
    for (const id of purged) expect(await r.exists(`${P}:job:${id}`)).toBe(0);
    expect(await r.zcard(`${P}:q:${pq}:ready`)).toBe(0);
    expect(await r.hget(`${P}:job:${keep}`, 'st')).toBe('ready');

    // Enqueue by name: a bad value under its field and nothing written; then the message in Redis.
    await page.goto('/brokers/redis/enqueue');
    await page.getByLabel('Task name', { exact: true }).fill('rt.record');
    await page.getByLabel('Queue', { exact: true }).fill(eq);
    await page.getByLabel('Arguments (JSON list)', { exact: true }).fill('[1,');
    await page.getByTestId('enqueue-submit').click();
    await expect(page.getByTestId('error-args')).toBeVisible();
    expect(await r.zcard(`${P}:q:${eq}:ready`)).toBe(0);
    await page.getByLabel('Arguments (JSON list)', { exact: true }).fill('[7, "seven"]');
    await page.getByTestId('enqueue-submit').click();
    await expect(page.getByTestId('enqueue-success')).toContainText(`in ${eq}`);
    const id = (await page.getByTestId('enqueue-new-id').textContent())?.trim() ?? '';
    await page.screenshot({ path: 'test-results/redis-enqueued.png', fullPage: true });
    expect(await r.hget(`${P}:job:${id}`, 'st')).toBe('ready');
    expect(await r.zscore(`${P}:q:${eq}:ready`, id)).not.toBeNull();
    expect(JSON.parse((await r.hget(`${P}:job:${id}`, 'p'))!)).toMatchObject({ task: 'rt.record', id, queue: eq, args: [7, 'seven'] });
    expect(pageErrors).toEqual([]);
  } finally {
    r.disconnect();
  }
});
