// Per-queue counts on a real potatoq PostgreSQL schema where one queue's rows all come after
// another queue's 1,000+ in index order: every queue's count is exact, and an unfinished count
// is a lower bound with the planner's estimate on every queue, never a plain 0.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerOverview } from '@/lib/brokers/schema';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { dropSchema, messageSql, migratedSchema, PG_URL, pgAvailable, sqlAdmin, tableOf, type PgTarget } from '@/tests/support/postgres';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await pgAvailable();

describe.skipIf(!available)('postgres overview counts every queue, not a sample of the newest rows', () => {
  let t: PgTarget;
  beforeAll(async () => {
    t = migratedSchema();
    const J = tableOf(t, 'jobs');
    const dead = (queue: string, n: number, diedAt: string) =>
      sqlAdmin(`INSERT INTO ${tableOf(t, 'dead')} (id, queue, task, reason, died_at, payload)
        SELECT '${queue}-' || i, '${queue}', 'ct.t', 'ValueError: x', ${diedAt}, ${messageSql(`'${queue}-' || i`, 'ct.t', `'${queue}'`, 'i::text')}
        FROM generate_series(1, ${n}) i`);
    const jobs = (queue: string, n: number, state: number, runAt: string, worker: string | null) =>
      sqlAdmin(`INSERT INTO ${J} (id, queue, task, state, run_at, deliveries, worker, pid, claimed_at, payload)
        SELECT '${queue}-' || i, '${queue}', 'ct.t', ${state}, ${runAt}, ${state === 2 ? 1 : 0}, ${worker === null ? 'NULL' : `'${worker}'`},
          ${state === 2 ? 'i' : 'NULL'}, ${state === 2 ? 'now()' : 'NULL'}, ${messageSql(`'${queue}-' || i`, 'ct.t', `'${queue}'`, 'i::text')}
        FROM generate_series(1, ${n}) i`);
    // 150 letters in `emails`, an hour older than 1,200 in `bulk`.
    await dead('emails', 150, "now() - interval '1 hour' - make_interval(secs => i)");
    await dead('bulk', 1200, 'now() - make_interval(secs => i * 0.01)');
    // Scheduled: 1,100 due in a minute come first in run_at order, 40 due tomorrow after them.
    await jobs('soon', 1100, 0, "now() + interval '1 minute' + make_interval(secs => i * 0.001)", null);
    await jobs('reports', 40, 0, "now() + interval '1 day' + make_interval(secs => i)", null);
    // Running: 1,050 on worker "a…" come first in worker order, 5 on worker "z…" after them.
    await jobs('busy', 1050, 2, 'now()', 'a@host:1:x');
    await jobs('slow', 5, 2, 'now()', 'z@host:2:x');
    // One ready task each puts the queues a bounded scan may miss on the overview anyway.
    await sqlAdmin(
      `INSERT INTO ${J} (id, queue, task, state, payload)
       SELECT q || '-ready', q, 'ct.t', 1, ${messageSql("q || '-ready'", 'ct.t', 'q', '1')} FROM unnest(ARRAY['emails', 'reports', 'slow']) q`,
    );
    await sqlAdmin(`ANALYZE ${J}; ANALYZE ${tableOf(t, 'dead')}`);
  });
  afterAll(async () => {
    if (t) await dropSchema(t.schema);
  });

  const overview = async (options: Record<string, unknown> = {}): Promise<BrokerOverview> => {
    const a = createPostgresAdapter({
      id: `counts-${randomBytes(3).toString('hex')}`,
      name: 'counts',
      url: PG_URL,
      readOnly: true,
      options: { ...t.options, ...options },
    });
    try {
      return await a.overview();
    } finally {
      await a.close();
    }
  };

  it('counts 150 older letters next to 1,200 newer ones exactly, and every scheduled and running queue', async () => {
    const o = await overview();
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
  });

  it('past countScan every queue is a lower bound with the estimate and why, the unreached ones "at least 0"', async () => {
    const o = await overview({ countScan: 1000 });
    const q = Object.fromEntries(o.queues.map((x) => [x.name, x]));
    // The newest 1,001 letters are all in `bulk`: `emails` was not reached, and says so.
    expect(q.bulk?.capped?.dead?.atLeast).toBe(1001);
    expect(q.bulk?.capped?.dead?.why).toContain('1,000 dead letters');
    expect(q.emails?.dead).toBe(0);
    expect(q.emails?.capped?.dead?.atLeast).toBe(0);
    // The planner's estimate for `emails` (fresh statistics: 150) rides along.
    expect(q.emails?.capped?.dead?.estimate).toBeGreaterThan(0);
    expect(q.reports?.capped?.scheduled?.atLeast).toBe(0);
    expect(q.slow?.capped?.running?.atLeast).toBe(0);
    expect(o.totalsCapped?.dead?.atLeast).toBe(1001);
  });
});
