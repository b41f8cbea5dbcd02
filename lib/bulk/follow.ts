import 'server-only';
import { appendBulkCampaign, markBulkCampaign, openBulkCampaign } from '@/lib/campaigns/record';
import type { NewCampaign } from '@/lib/campaigns/store';
import type { BulkJob } from './runner';

// A bulk replay or move is a campaign from its start: made when the job starts (its frozen
// filter and snapshot count, who, why, the job's id), grown by the ids of each batch the
// system took (refusals excluded), and marked with how the job stopped, so its roll-up is live
// while the job runs. On the broker the tasks run on (a move's target). Discard and revoke
// leave nothing to follow; a move of waiting tasks is not followed (docs/campaigns.md says why).

function campaignOf(job: BulkJob, auditId: string | null, reason: string | null): NewCampaign | null {
  if (job.action !== 'replay' && job.action !== 'move') return null;
  const broker = job.action === 'move' ? job.filter.to : job.brokerId;
  if (!broker) return null;
  return {
    broker,
    action: `bulk-${job.action}`,
    who: job.actor ?? 'unknown',
    reason,
    auditId,
    parent: null,
    filter: { ...job.filter, broker: job.brokerId, jobId: job.id },
  };
}

/** The error every task died of before, where the job replays one group; else unknown. */
const beforeOf = (job: BulkJob) => (typeof job.filter.group === 'string' ? job.filter.group : null);

/**
 * Makes the job's campaign (nothing when it exists: a job taken over, or a failed one resumed)
 * and has each batch's ids join it. Called before the job's loop starts here.
 */
export async function followBulk(job: BulkJob, auditId: string | null, reason: string | null): Promise<void> {
  const c = campaignOf(job, auditId, reason);
  if (!c) return;
  // A store that cannot be written is logged once here; the job runs without its campaign.
  if (!(await openBulkCampaign(c, { id: job.id, state: 'running', why: null }, job.total))) return;
  await markBulkCampaign({ id: job.id, state: 'running', why: null });
  const before = beforeOf(job);
  job.onActed = (items) => appendBulkCampaign(job.id, items, before);
}

/** The job stopped: its campaign says how (its follow-up settles once every task has a fate). */
export async function followBulkEnd(job: BulkJob): Promise<void> {
  if (!campaignOf(job, null, null)) return;
  const state = job.state === 'done' || job.state === 'cancelled' || job.state === 'failed' ? job.state : null;
  if (!state) return;
  await markBulkCampaign({ id: job.id, state, why: job.error ? `${job.error.code}: ${job.error.message}` : null });
}
