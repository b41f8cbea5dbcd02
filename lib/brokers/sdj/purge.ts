import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { SdjStore } from './store';
import { inList } from './tx';

// Purge: the library's `PurgeJobs(queue, status)` (docs/systems/simple-durable-jobs.md, "Writes"
// §5), one transaction in batches of 1000: ids first (`FOR UPDATE SKIP LOCKED`, so rows a worker
// holds are skipped; MySQL refuses a DELETE that sub-selects its own table), then their
// checkpoints, signals, unique locks and rows. Fan-out parents are never purged, whatever their
// status, nor sub-jobs of a parent that is not terminal. The statuses are the dashboard's.

export const PURGEABLE = ['pending', 'completed', 'failed', 'cancelled', 'paused'] as const;
const BATCH = 1000;

export async function purgeJobs(store: SdjStore, opts: { queue: string; status: string }): Promise<{ deleted: number }> {
  if (!(PURGEABLE as readonly string[]).includes(opts.status))
    throw new ConsoleError('InvalidInput', `status: only ${PURGEABLE.join(', ')} jobs are purged`, { status: 'not purgeable' });
  if (typeof opts.queue !== 'string' || opts.queue === '')
    throw new ConsoleError('InvalidInput', 'queue: a queue must be named', { queue: 'a queue must be named' });
  await store.requireWritable();
  return store.db.tx(async (q) => {
    let deleted = 0;
    for (;;) {
      const ids = (
        await q.all(
          `SELECT id FROM jobs
            WHERE status = ?
              AND id NOT IN (SELECT DISTINCT parent_job_id FROM fan_outs WHERE parent_job_id IS NOT NULL)
              AND NOT EXISTS (SELECT 1 FROM fan_outs f JOIN jobs pp ON pp.id = f.parent_job_id
                               WHERE f.id = jobs.fan_out_id AND pp.status NOT IN ('completed', 'failed', 'cancelled'))
              AND queue = ?
            LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
          [opts.status, opts.queue],
        )
      ).map((r) => r.id);
      if (ids.length === 0) return { deleted };
      const list = inList(ids.length);
      await q.run(`DELETE FROM checkpoints WHERE job_id IN ${list}`, ids);
      await q.run(`DELETE FROM signals WHERE job_id IN ${list}`, ids);
      await q.run(`DELETE FROM unique_locks WHERE job_id IN ${list}`, ids);
      const n = await q.run(`DELETE FROM jobs WHERE id IN ${list} AND status = ?`, [...ids, opts.status]);
      deleted += n;
      if (n === 0) return { deleted };
    }
  });
}
