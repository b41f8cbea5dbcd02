// Bulk replay on a real RabbitMQ 4.x (scripts/services.sh up rabbitmq4) with letters written by the real
// potatoq: a paced redrive of one queue's DLQ, and a cancel between batches.
// int-lane: owns rabbitmq; uses redis/0 (RabbitMQ as a whole, conservatively; results under a per-run prefix)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newTag, rabbitVersion, redisAvailable, REDIS_URL, RMQ4_MGMT, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { ROOT } from '@/tests/support/potatoq-seeder';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)) && (await redisAvailable());
const tag = newTag();
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([
  {
    id: 'bulkrmq',
    name: 'Bulk RabbitMQ',
    url: RMQ4_URL,
    managementUrl: RMQ4_MGMT,
    resultBackend: REDIS_URL,
    resultBackendOptions: { prefix: tag },
    // Smaller than the DLQs below: the snapshot of a replay must not depend on the list's browse window.
    deadBrowseLimit: 100,
  },
]);

async function withSeeder<T>(fn: (py: ReturnType<typeof spawnRabbitSeeder>) => Promise<T>): Promise<T> {
  const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
  try {
    return await fn(py);
  } finally {
    await py.call('cleanup').catch(() => undefined);
    await py.close();
  }
}

async function newJob(queue: string, rate: number | null) {
  const { serviceBackend } = await import('@/lib/bulk/backend');
  const { BulkJob } = await import('@/lib/bulk/runner');
  const { takeSnapshot } = await import('@/lib/bulk/snapshot');
  const backend = serviceBackend('bulkrmq', 'replay', { queue });
  return new BulkJob({ brokerId: 'bulkrmq', action: 'replay', filter: { queue }, snapshot: await takeSnapshot(backend), backend, rate });
}

const idsIn = async (py: ReturnType<typeof spawnRabbitSeeder>, queue: string) =>
  (await py.call<Array<{ id: string }>>('messages', { queue })).map((m) => m.id).sort();

describe.skipIf(!available)('bulk replay on RabbitMQ 4', () => {
  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
  });

  it(
    'redrives one queue’s dead letters at the chosen rate; another queue’s stay in its DLQ',
    () =>
      withSeeder(async (py) => {
        const queue = `bk${tag}a`;
        const other = `bk${tag}b`;
        const ids = await py.call<string[]>('dead_letter_bulk', { queue, n: 30 });
        const kept = await py.call<string[]>('dead_letter_bulk', { queue: other, n: 5 });
        const job = await newJob(queue, 20);
        expect(job.total).toBe(30);
        const t0 = Date.now();
        job.start();
        await job.finished;
        // 30 at 20/s in one pass over the DLQ (replayDeadPaced): one letter every 50 ms.
        expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
        expect(job.view()).toMatchObject({ state: 'done', progress: { total: 30, succeeded: 30, batches: 1 } });
        expect(await idsIn(py, queue)).toEqual([...ids].sort());
        expect(await idsIn(py, `${queue}.dlq`)).toEqual([]);
        expect(await idsIn(py, `${other}.dlq`)).toEqual([...kept].sort());
      }),
    120_000,
  );

  it(
    'cancelled during its wait, leaves the letters not reached in the DLQ',
    () =>
      withSeeder(async (py) => {
        const queue = `bk${tag}c`;
        await py.call<string[]>('dead_letter_bulk', { queue, n: 30 });
        const job = await newJob(queue, 10);
        job.start();
        while (job.view().progress.processed < 10) await new Promise((r) => setTimeout(r, 50));
        job.cancel();
        await job.finished;
        // The letter waiting for its turn when the cancel came may still go: at most one more.
        const v = job.view();
        expect(v.state).toBe('cancelled');
        expect(v.progress.processed).toBeGreaterThanOrEqual(10);
        expect(v.progress.processed).toBeLessThanOrEqual(12);
        expect(v.progress).toMatchObject({ total: 30, succeeded: v.progress.processed, failed: 0 });
        const done = [...v.succeededSample].sort();
        expect(await idsIn(py, queue)).toEqual(done);
        expect(await idsIn(py, `${queue}.dlq`)).toEqual(
          job
            .snapshotIds()
            .filter((id) => !done.includes(id))
            .sort(),
        );
      }),
    120_000,
  );

  it(
    'replays all of a DLQ deeper than deadBrowseLimit: the snapshot counts every letter, one pass replays them',
    () =>
      withSeeder(async (py) => {
        const queue = `bk${tag}d`;
        const ids = await py.call<string[]>('dead_letter_bulk', { queue, n: 350 });
        const job = await newJob(queue, null);
        expect(job.total).toBe(350); // the count the operator confirms
        expect(job.view().capped).toBe(false);
        job.start();
        await job.finished;
        expect(job.view()).toMatchObject({ state: 'done', progress: { total: 350, succeeded: 350, failed: 0, skipped: 0 } });
        expect(await idsIn(py, queue)).toEqual([...ids].sort());
        expect(await idsIn(py, `${queue}.dlq`)).toEqual([]);
      }),
    120_000,
  );
});
