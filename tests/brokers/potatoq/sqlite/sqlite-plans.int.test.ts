// Every read the console sends to potatoq's SQLite database is planned on potatoq's indexes on
// a live-shaped file (tests/support/sqlite-live-seed.ts), with no, stale or fresh statistics.
// The statements are captured as the adapter runs them and explained with EXPLAIN QUERY PLAN:
// a full scan of a potatoq table ("SCAN potatoq_jobs" without an index) or a whole index walked
// and sorted for one page fails the test. SQLite reports no row counts, so the bound is on the plan's shape.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { encodeCursor } from '@/lib/brokers/cursor';
import type { LiveSizes, StatsState } from '@/tests/support/pg-live-seed';
import { seedSqliteLive } from '@/tests/support/sqlite-live-seed';
import { migratedDb } from '@/tests/support/sqlite-db';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import { taskQuery } from '@/tests/support/task-query';

const SIZES: LiveSizes = { queues: 20, waiting: 20_000, running: 1_000, retried: 500, dead: 2_000 };

const captured: Array<{ sql: string; args: unknown[] }> = [];
const originalPrepare = Database.prototype.prepare;
function capture(): void {
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const stmt = originalPrepare.call(this, sql);
    if (!/^\s*(EXPLAIN|PRAGMA)/i.test(sql)) {
      for (const m of ['all', 'get', 'iterate'] as const) {
        const run = stmt[m] as (...a: unknown[]) => unknown;
        (stmt as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => (captured.push({ sql, args }), run.apply(stmt, args));
      }
    }
    return stmt;
  } as typeof originalPrepare;
}

describe('sqlite reads on a live-shaped database use potatoq indexes', () => {
  const states: StatsState[] = ['none', 'stale', 'fresh'];
  const files = new Map<StatsState, string>();
  beforeAll(() => {
    for (const s of states) {
      const f = migratedDb();
      seedSqliteLive(f, SIZES, s);
      files.set(s, f);
    }
    capture();
  });
  afterAll(() => {
    Database.prototype.prepare = originalPrepare;
    for (const f of files.values()) fs.rmSync(path.dirname(f), { recursive: true, force: true });
  });

  const reads: Array<[string, (a: BrokerAdapter) => Promise<unknown>]> = [
    ['overview', (a) => a.overview()],
    ['ready page 1, all queues', (a) => a.listTasks(taskQuery({ state: 'ready', limit: 50 }))],
    [
      'ready, all queues, after a cursor',
      (a) => a.listTasks(taskQuery({ state: 'ready', limit: 50, cursor: encodeCursor('tasks:ready', [2, 2, 9000]) })),
    ],
    ['ready page 1, one queue', (a) => a.listTasks(taskQuery({ state: 'ready', limit: 50, queue: 'bench-q03' }))],
    [
      'scheduled, after a cursor',
      (a) => a.listTasks(taskQuery({ limit: 50, state: 'scheduled', cursor: encodeCursor('tasks:scheduled', [1e12, 1e12, 5]) })),
    ],
    ['running page 1', (a) => a.listTasks(taskQuery({ limit: 50, state: 'running' }))],
    ['task search', (a) => a.listTasks(taskQuery({ state: 'ready', limit: 50, q: 'order-7' }))],
    ['task detail', (a) => a.getTask('r-777')],
    ['dead letters page 1', (a) => a.listDead(ZDeadListQuery.parse({ limit: 100 }))],
    [
      'dead letters, after a cursor',
      (a) => a.listDead(ZDeadListQuery.parse({ limit: 50, cursor: encodeCursor('dead', [1e12, 1e12, 'd-1']) })),
    ],
    ['dead letters, one queue', (a) => a.listDead(ZDeadListQuery.parse({ limit: 50, queue: 'bench-q04' }))],
    ['dead-letter search', (a) => a.listDead(ZDeadListQuery.parse({ limit: 50, q: 'upstream' }))],
    ['dead-letter groups', (a) => a.deadGroups({})],
    ['dead-letter detail', (a) => a.getDead('d-42')],
    ['task names', (a) => a.taskNames()],
  ];
  // Sorts allowed after a full index walk: every running row (potatoq has no claimed_at index),
  // the search window's hits, and the UNION of the task-name windows (each ended by a LIMIT).
  const sortAllowed = new Set(['running page 1', 'task search', 'task names']);

  for (const s of states) {
    describe(`statistics: ${s}`, () => {
      for (const [name, call] of reads) {
        it(`${name}: no full scan of a potatoq table`, async () => {
          const a = createSqliteAdapter({ id: 'plans', name: 'plans', url: `sqlite:///${files.get(s)!}`, readOnly: true, options: {} });
          try {
            captured.length = 0;
            await call(a);
          } finally {
            await a.close();
          }
          const statements = captured.splice(0).filter((c) => /potatoq_(jobs|dead|results)/.test(c.sql));
          expect(statements.length).toBeGreaterThan(0);
          const db = new Database(files.get(s)!, { readonly: true });
          try {
            for (const st of statements) {
              const plan = (
                (originalPrepare.call(db, `EXPLAIN QUERY PLAN ${st.sql}`) as Database.Statement<unknown[]>).all(...st.args) as Array<{
                  detail: string;
                }>
              ).map((r) => r.detail);
              const full = plan.filter((d) => /^SCAN potatoq_(jobs|dead|results)\b(?! USING)/.test(d));
              expect(full, `${st.sql}\n${plan.join('\n')}`).toEqual([]);
              // A whole index walked and then sorted: every row of a state is read for one page.
              const walked =
                plan.some((d) => /^SCAN potatoq_(jobs|dead) USING INDEX/.test(d)) && plan.includes('USE TEMP B-TREE FOR ORDER BY');
              if (!sortAllowed.has(name)) expect(walked, `${st.sql}\n${plan.join('\n')}`).toBe(false);
            }
          } finally {
            db.close();
          }
        });
      }
    });
  }
});
