// Bulk jobs on a real PostgreSQL broker (schema made by the real `potatoq migrate`): replay of
// every letter of one queue, then a revoke of the replayed tasks racing a worker's claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dropSchema,
  migratedSchema,
  pgAvailable,
  PG_URL,
  seedDeadLetters,
  sqlAdmin,
  tableOf,
  type PgTarget,
} from '@/tests/support/postgres';
import type { BulkBackend } from '@/lib/bulk/snapshot';

const up = await pgAvailable();
let t: PgTarget;

async function run(action: 'replay' | 'revoke', filter: Record<string, string>, before?: () => Promise<void>) {
  const { serviceBackend } = await import('@/lib/bulk/backend');
  const { BulkJob } = await import('@/lib/bulk/runner');
  const { takeSnapshot } = await import('@/lib/bulk/snapshot');
  const backend: BulkBackend = serviceBackend('bulkpg', action, filter);
  const job = new BulkJob({ brokerId: 'bulkpg', action, filter, snapshot: await takeSnapshot(backend), backend });
  await before?.();
  job.start();
  await job.finished;
  return job;
}

describe.skipIf(!up)('bulk jobs on PostgreSQL', () => {
  beforeAll(() => {
    t = migratedSchema();
    process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'bulkpg', name: 'Bulk PG', url: PG_URL, ...t.options }]);
  }, 60_000);
  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    if (t) await dropSchema(t.schema);
  });

  it('replays every letter of one queue in batches; other queues keep theirs', async () => {
    const wanted = await seedDeadLetters(t, 1200, 'pg-bulk-a', 'a');
    await seedDeadLetters(t, 50, 'pg-bulk-b', 'b');
    const job = await run('replay', { queue: 'pg-bulk-a' });
    expect(job.view()).toMatchObject({ state: 'done', progress: { total: 1200, succeeded: 1200, skipped: 0, failed: 0, batches: 3 } });
    const dead = await sqlAdmin<{ queue: string; n: string }>(`SELECT queue, count(*) AS n FROM ${tableOf(t, 'dead')} GROUP BY queue`);
    expect(dead).toEqual([{ queue: 'pg-bulk-b', n: '50' }]);
    const ready = await sqlAdmin<{ n: string }>(
      `SELECT count(*) AS n FROM ${tableOf(t, 'jobs')} WHERE queue = 'pg-bulk-a' AND state = 1 AND id = ANY($1)`,
      [wanted],
    );
    expect(ready[0]?.n).toBe('1200');
  }, 120_000);

  it('revokes the waiting tasks and skips one a worker claimed after the snapshot', async () => {
    const claimed = 'a-7';
    const job = await run('revoke', { queue: 'pg-bulk-a', state: 'ready' }, async () => {
      await sqlAdmin(`UPDATE ${tableOf(t, 'jobs')} SET state = 2, claimed_at = now() WHERE id = $1`, [claimed]);
    });
    const v = job.view();
    expect(v).toMatchObject({ state: 'done', progress: { total: 1200, succeeded: 1199, skipped: 1 } });
    expect(v.skippedOutcomes).toEqual([expect.objectContaining({ id: claimed, outcome: 'running' })]);
    const left = await sqlAdmin<{ id: string; state: number }>(`SELECT id, state FROM ${tableOf(t, 'jobs')} WHERE queue = 'pg-bulk-a'`);
    expect(left).toEqual([{ id: claimed, state: 2 }]);
  }, 120_000);
});
