import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { guardPage } from './helpers';
import { startConsole } from './auth-server';
import { redisClient } from './services';

// Edit and replay on a non-SQL broker: potatoq on Redis (db 2, a key prefix of this run). The
// real potatoq worker dead-letters `er.when` (its `at` is text); in the page the letter's `at`
// becomes a datetime and its queue a new one; Redis then holds the edited task on that queue,
// and a real worker there receives a datetime. Screenshot: test-results/edit-replay-redis.png.

const ROOT = path.resolve(__dirname, '..');
const POTATOQ = path.join(ROOT, '.venv/bin/potatoq');
const PY = path.join(ROOT, 'tests/py');
const REDIS = (process.env.POTATOQ_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0').replace(/\/\d*$/, '/2');

async function until(what: string, fn: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('edit and replay on potatoq on Redis: a real letter gets a typed datetime and a new queue, and a real worker runs it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const r = await redisClient(REDIS).catch(() => null);
  if (!r && process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(`Redis is required at ${REDIS}`);
  test.skip(!r, 'Redis is not available');
  const tag = randomBytes(4).toString('hex');
  const prefix = `er-${tag}`;
  const [from, to] = [`er-${tag}-from`, `er-${tag}-to`];
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'er-e2e-'));
  const env = { ...process.env, ER_BROKER: REDIS, ER_PREFIX: prefix, ER_OUT: out, PYTHONUNBUFFERED: '1' };
  const runs = (id: string) =>
    fs.existsSync(path.join(out, `${id}.runs`))
      ? fs
          .readFileSync(path.join(out, `${id}.runs`), 'utf8')
          .trim()
          .split('\n')
      : [];
  const runWorker = async (queue: string, done: () => boolean | Promise<boolean>) => {
    const w = spawn(POTATOQ, ['-A', 'er_tasks', '--no-color', '--no-emoji', 'worker', '-P', 'solo', '-Q', queue, '--no-scheduler'], {
      cwd: PY,
      env,
      stdio: 'ignore',
    });
    try {
      await until(`the worker on ${queue}`, done, 60_000);
    } finally {
      w.kill('SIGTERM');
      await new Promise((r) => w.on('exit', r));
    }
  };
  if (!r) return;
  const c = await startConsole({ POTATOQ_CONSOLE_BROKERS: JSON.stringify([{ id: 'er', name: 'Edit (Redis)', url: REDIS, prefix }]) });
  try {
    const id = execFileSync(
      POTATOQ,
      ['-A', 'er_tasks', '--no-color', '--no-emoji', 'call', 'er.when', '-Q', from, '-a', '[1]', '-k', '{"at": "not yet"}'],
      { cwd: PY, env },
    )
      .toString()
      .trim()
      .split(/\s+/)
      .pop()!;
    await runWorker(from, async () => (await r.hget(`${prefix}:job:${id}`, 'st')) === 'dead');

    const { pageErrors } = guardPage(page);
    await page.goto(`${c.url}/brokers/er/dead/${id}`);
    const panel = page.getByTestId('edit-replay');
    await panel.getByTestId('edit-open').click();
    await expect(panel.getByTestId('edit-does')).toContainText(`It runs as ${id} (same id).`);
    await expect(panel.getByTestId('edit-type-kwargs.at')).toHaveValue('str');
    await panel.getByTestId('edit-type-kwargs.at').selectOption('datetime');
    // Not a date-time: refused under its own field, and nothing in Redis changes.
    await panel.getByTestId('edit-kwargs.at').fill('tomorrow 9am');
    await panel.getByTestId('edit-preview').click();
    await expect(panel.getByTestId('edit-error-kwargs.at')).toContainText('is not an ISO 8601 date-time');
    expect(await r.hget(`${prefix}:job:${id}`, 'st')).toBe('dead');
    await panel.getByTestId('edit-kwargs.at').fill('2026-12-02T10:30:00+01:00');
    await panel.getByTestId('edit-queue').fill(to);
    await panel.getByTestId('edit-preview').click();
    const diff = panel.getByTestId('edit-diff');
    await expect(diff.locator('[data-field="queue"]')).toHaveAttribute('data-changed', 'yes');
    await expect(diff.locator('[data-field="kwargs"]')).toHaveAttribute('data-changed', 'yes');
    await expect(diff.locator('[data-field="args"]')).toHaveAttribute('data-changed', 'no');
    await expect(diff.locator('[data-field="kwargs"]')).toContainText('2026-12-02T10:30:00+01:00');
    await page.screenshot({ path: 'test-results/edit-replay-redis.png', fullPage: true });
    await panel.getByTestId('confirm-reason').fill('e2e: at must be a datetime');
    await panel.getByTestId('edit-confirm').click();
    await expect(panel.getByTestId('edit-outcome')).toHaveAttribute('data-outcome', 'ok');

    // In Redis: the same id, ready on the new queue, with potatoq's datetime tag; no longer dead.
    expect(await r.hmget(`${prefix}:job:${id}`, 'st', 'q')).toEqual(['ready', to]);
    expect(await r.zscore(`${prefix}:q:${to}:ready`, id)).not.toBeNull();
    expect(await r.zscore(`${prefix}:dead`, id)).toBeNull();
    const payload = JSON.parse((await r.hget(`${prefix}:job:${id}`, 'p'))!) as { queue: string; kwargs: Record<string, unknown> };
    expect(payload).toMatchObject({ queue: to, kwargs: { at: { __potatoq__: 'datetime', v: '2026-12-02T10:30:00+01:00' } } });
    // The real worker on the new queue receives a datetime, once.
    await runWorker(to, () => runs(id).length > 0);
    expect(runs(id)).toHaveLength(1);
    expect(JSON.parse(runs(id)[0]!).kwargs.at).toEqual([
      'datetime',
      'datetime.datetime(2026, 12, 2, 10, 30, tzinfo=datetime.timezone(datetime.timedelta(seconds=3600)))',
    ]);
    // The audit entry records the edit and the message before and after.
    const trail = (await (await page.request.get(`${c.url}/api/audit?broker=er&task=${id}`)).json()) as {
      entries: Array<{ action: string; reason: string; details: { before?: string; after?: string; sameId?: boolean } }>;
    };
    const e = trail.entries.find((x) => x.action === 'replay-edited')!;
    expect(e.reason).toBe('e2e: at must be a datetime');
    expect(e.details.before).toContain(`"queue":"${from}"`);
    expect(e.details.after).toContain(`"queue":"${to}"`);
    expect(pageErrors).toEqual([]);
  } finally {
    await c.stop();
    const keys = await r.keys(`${prefix}:*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
    fs.rmSync(out, { recursive: true, force: true });
  }
});
