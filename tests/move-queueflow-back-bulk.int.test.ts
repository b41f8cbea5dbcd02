// All matching QueueFlow dead letters moved back to Celery (Redis) as one bulk job, through the
// same runner and move as one letter (tests/move-queueflow-back.int.test.ts): the real QueueFlow
// 0.6.0 server and its Python client's worker make the letters, the real Celery 5.7 worker runs
// the moved tasks, each once, and no copy of a letter ever runs on QueueFlow.
// int-lane: owns redis/11 redis/12; uses redis/13 (the rig: Celery on dbs 11 and 12; potatoq under a prefix)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsIn } from '@/tests/support/runs-log';
import { until } from '@/tests/queueflow/support';
import { BulkJob, outC, Q, save, serviceBackend, startWorkers, stopWorkers, takeSnapshot, up } from '@/tests/support/move-qf-rig';
import { BACK, lefQueueFlow, logs, old, qfLetter } from '@/tests/support/move-qf-back';

describe.skipIf(!up)('moving all matching QueueFlow dead letters back to Celery as a bulk job, with real workers', () => {
  beforeAll(async () => {
    old.start();
    await startWorkers();
  }, 90_000);
  afterAll(async () => {
    await old?.stop();
    await stopWorkers();
  }, 60_000);

  it('moves each letter of the queue once: run once on Celery, its copy cancelled on QueueFlow', async () => {
    await save(BACK);
    const letters = [await qfLetter(), await qfLetter(), await qfLetter()];
    const filter = { queue: Q, to: 'celery' };
    const backend = serviceBackend('qf', 'move', filter);
    const job = new BulkJob({ brokerId: 'qf', action: 'move', filter, snapshot: await takeSnapshot(backend), backend });
    expect(new Set(job.snapshotIds())).toEqual(new Set(letters.map((l) => l.id)));
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'done', progress: { total: 3, succeeded: 3, skipped: 0, failed: 0 } });
    for (const l of letters) {
      await until('the Celery worker to run it', () => runsIn(outC, l.job) > 0, 40_000, logs);
      expect(runsIn(outC, l.job)).toBe(1);
      await lefQueueFlow(l.id, l.job);
    }
  }, 150_000);
});
