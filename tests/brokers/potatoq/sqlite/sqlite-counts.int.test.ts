// Per-queue counts on a real potatoq SQLite file where one queue's rows are all older (or later
// in index order) than another queue's 1,000+: every queue's count is exact, and an unfinished
// count is a lower bound on every queue, never a plain 0.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb } from '@/tests/support/sqlite-db';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';

const series = (n: number) => `WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < ${n})`;
const msg = (prefix: string, queue: string) =>
  `'{"task":"ct.t","args":[' || i || '],"id":"${prefix}-' || i || '","queue":"${queue}","root_id":"${prefix}-' || i || '","enqueued_at":1796000000.5,"v":1}'`;

describe('sqlite overview counts every queue, not a sample of the newest rows', () => {
  let file = '';
  beforeAll(() => {
    file = migratedDb();
    const db = new Database(file);
    const now = Date.now() / 1000;
    const dead = (queue: string, n: number, diedAt: string) =>
      db.exec(`${series(n)} INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload)
        SELECT '${queue}-' || i, '${queue}', 'ct.t', 'ValueError: x', ${diedAt}, ${msg(queue, queue)} FROM g`);
    const jobs = (queue: string, n: number, state: number, runAt: string, worker: string | null) =>
      db.exec(`${series(n)} INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, deliveries, created_at, worker, pid, claimed_at, payload)
        SELECT '${queue}-' || i, '${queue}', 'ct.t', ${state}, 0, ${runAt}, ${state === 2 ? 1 : 0}, ${now}, ${worker === null ? 'NULL' : `'${worker}'`},
          ${state === 2 ? 'i' : 'NULL'}, ${state === 2 ? now : 'NULL'}, ${msg(queue, queue)} FROM g`);
    // 150 letters in `emails`, an hour older than 1,200 in `bulk`.
    dead('emails', 150, `${now} - 3600 - i`);
    dead('bulk', 1200, `${now} - i * 0.01`);
    // Scheduled: 1,100 due in a minute come first in run_at order, 40 due tomorrow after them.
    jobs('soon', 1100, 0, `${now} + 60 + i * 0.001`, null);
    jobs('reports', 40, 0, `${now} + 86400 + i`, null);
    // Running: 1,050 on worker "a…" come first in worker order, 5 on worker "z…" after them.
    jobs('busy', 1050, 2, String(now), 'a@host:1:x');
    jobs('slow', 5, 2, String(now), 'z@host:2:x');
    // One ready task each puts the queues a bounded scan may miss on the overview anyway.
    const ready = db.prepare(`INSERT INTO potatoq_jobs (id, queue, task, state, priority, run_at, created_at, payload)
      VALUES (?, ?, 'ct.t', 1, 0, ${now}, ${now}, ?)`);
    for (const queue of ['emails', 'reports', 'slow'])
      ready.run(`${queue}-ready`, queue, JSON.stringify({ task: 'ct.t', args: [], id: `${queue}-ready`, queue, v: 1 }));
    db.close();
  });
  afterAll(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));

  const adapter = (options: Record<string, unknown> = {}) =>
    createSqliteAdapter({ id: 'counts', name: 'counts', url: `sqlite:///${file}`, readOnly: true, options });

  it('counts 150 older letters next to 1,200 newer ones exactly, and every scheduled and running queue', async () => {
    const a = adapter();
    try {
      const o = await a.overview();
      const q = Object.fromEntries(o.queues.map((x) => [x.name, x]));
      expect(q.emails).toMatchObject({ dead: 150 });
      expect(q.bulk).toMatchObject({ dead: 1200 });
      expect(q.reports).toMatchObject({ scheduled: 40 });
      expect(q.soon).toMatchObject({ scheduled: 1100 });
      expect(q.slow).toMatchObject({ running: 5 });
      expect(q.busy).toMatchObject({ running: 1050 });
      for (const x of o.queues) expect(x.capped, x.name).toBeUndefined();
      expect(o.totals).toMatchObject({ dead: 1350, scheduled: 1140, running: 1055 });
      expect(o.totalsCapped).toBeUndefined();
    } finally {
      await a.close();
    }
  });

  it('past countScan every queue is a lower bound with why, the ones the scan never reached as "at least 0"', async () => {
    const a = adapter({ countScan: 1000 });
    try {
      const o = await a.overview();
      const q = Object.fromEntries(o.queues.map((x) => [x.name, x]));
      // The newest 1,001 letters are all in `bulk`: `emails` was not reached, and says so.
      expect(q.bulk?.capped?.dead).toMatchObject({ atLeast: 1001, estimate: null });
      expect(q.bulk?.capped?.dead?.why).toContain('1,000 dead letters');
      expect(q.emails?.capped?.dead).toMatchObject({ atLeast: 0 });
      expect(q.emails?.dead).toBe(0);
      expect(q.reports?.capped?.scheduled).toMatchObject({ atLeast: 0 });
      expect(q.slow?.capped?.running).toMatchObject({ atLeast: 0 });
      expect(o.totalsCapped?.dead?.atLeast).toBe(1001);
    } finally {
      await a.close();
    }
  });
});
