import 'server-only';
import { recordBulkCampaign } from '@/lib/campaigns/record';
import type { BulkJob } from './runner';
import type { BulkJobView } from './schema';

/**
 * A bulk replay or move that stopped becomes a campaign over the ids it processed without a
 * refusal, on the broker the tasks run on (a move's target). Discard and revoke leave nothing
 * to follow; nor does a move of waiting tasks yet (as its single move, it records no campaign). The filter is kept as the campaign's frozen scope, with the job's id.
 */
export async function followBulk(job: BulkJob, v: BulkJobView, auditId: string | null, reason: string | null): Promise<void> {
  if (job.action !== 'replay' && job.action !== 'move') return;
  const broker = job.action === 'move' ? job.filter.to : job.brokerId;
  if (!broker) return;
  await recordBulkCampaign(
    {
      broker,
      action: `bulk-${job.action}`,
      who: job.actor ?? 'unknown',
      reason,
      auditId,
      parent: null,
      filter: { ...job.filter, broker: job.brokerId, jobId: job.id },
    },
    job.snapshotIds(),
    v.progress.processed ?? 0,
    [...v.skippedOutcomes, ...v.failedOutcomes],
  );
}
