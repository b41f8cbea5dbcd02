import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { requireService } from './brokers-extra';
import { e2eBrokers } from './brokers';
import { brokerCard, guardPage } from './helpers';
import { e2eQueueflow, type E2eQueueflow } from './queueflow-server';

// A queue the console's edit-replay holds paused, as a console that died mid-edit leaves it: its
// pause lease written into the e2e console's state store (the table the console creates), the
// queue paused in the REAL QueueFlow server. The overview card says so and Resume is refused;
// once the lease runs out, the next overview read resumes the queue (in the page and in the
// server) and the audit trail says so.

const qf = (): E2eQueueflow => e2eQueueflow(e2eBrokers().dir);
const STATE = () => path.join(e2eBrokers().dir, 'state.sqlite3');

async function api<T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await fetch(`${qf().url!}${route}`, {
    method,
    headers: { authorization: `Bearer ${qf().token!}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
}

const paused = async (queue: string) =>
  (await api<{ queues: Array<{ queue: string; paused?: boolean }> }>('GET', '/api/v1/queues')).body.queues.find((x) => x.queue === queue)
    ?.paused ?? false;

/** The state store's lease table (lib/state/leases.ts; a pause hold is the lease
 *  `pause/<broker>/<queue>`, lib/leases/store.ts), opened as another console process would. */
function leases() {
  const db = new Database(STATE());
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS console_leases (
    name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_ms INTEGER NOT NULL, started_at TEXT, data TEXT)`);
  return db;
}

test("a queue held paused by a dead console's edit-replay: shown on the overview, Resume refused, then recovered", async ({ page }) => {
  test.skip(!requireService(qf().why, 'QueueFlow server'), `QueueFlow: ${qf().why}`);
  const queue = `e2eql${randomBytes(3).toString('hex')}`;
  const made = await api<{ job_id: string }>('POST', '/api/v1/jobs', { task_name: 'billing.charge', payload: { n: 1 }, config: { queue } });
  expect(made.status).toBe(201);
  expect((await api('POST', `/api/v1/queues/${queue}/pause`, {})).status).toBe(200);
  const startedAt = new Date().toISOString();
  const db = leases();
  try {
    db.prepare('INSERT INTO console_leases (name, holder, expires_ms, started_at, data) VALUES (?, ?, ?, ?, ?)').run(
      `pause/qf/${queue}`,
      'e2e-host:4242:dead00',
      Date.now() + 120_000,
      startedAt,
      JSON.stringify({ broker: 'qf', queue, pausedByConsole: true, detail: {} }),
    );
    const { pageErrors } = guardPage(page);

    await page.goto('/');
    const card = brokerCard(page, 'qf');
    // The card may carry other warnings (another spec's failed workflow run, an earlier try's hold).
    await expect(card.getByTestId('broker-warning').filter({ hasText: queue })).toContainText(
      `Queue ${queue} is paused by the console's edit-replay since ${startedAt}`,
    );
    await card.getByRole('link', { name: queue }).click();
    await expect(page.getByTestId('queue-paused-badge')).toBeVisible();
    await page.getByTestId('action-pause').click();
    await expect(page.getByTestId('toast').filter({ hasText: "held by the console's edit-replay" })).toBeVisible();
    expect(await paused(queue)).toBe(true);

    // Its console never renews it: once the deadline passed, the next read recovers it.
    db.prepare('UPDATE console_leases SET expires_ms = ? WHERE name = ?').run(Date.now() - 1, `pause/qf/${queue}`);
    await page.goto('/');
    await expect(card.getByTestId('broker-warning').filter({ hasText: queue })).toHaveCount(0);
    await expect.poll(() => paused(queue)).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM console_leases WHERE name = ?').get(`pause/qf/${queue}`)).toEqual({ n: 0 });
    await card.getByRole('link', { name: queue }).click();
    await expect(page.getByTestId('queue-paused-badge')).toHaveCount(0);

    const trail = (await (await page.request.get('/api/audit?broker=qf&action=edit-replay-recovery')).json()) as {
      entries: Array<{ who: string; queue: string; message: string }>;
    };
    const e = trail.entries.find((x) => x.queue === queue)!;
    expect(e.who).toBe('console');
    expect(e.message).toContain('e2e-host:4242:dead00');
    expect(e.message).toContain(`queue ${queue} resumed`);
    expect(pageErrors).toEqual([]);
  } finally {
    db.close();
  }
});
