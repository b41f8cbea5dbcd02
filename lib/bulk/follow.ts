import 'server-only';
import { appendBulkCampaign, markBulkCampaign, openBulkCampaign } from '@/lib/campaigns/record';
import type { NewCampaign } from '@/lib/campaigns/store';
import type { ActedItem } from '@/lib/campaigns/store-bulk';
import type { BulkJob } from './runner';
import { isBulkMove } from './schema';

// A bulk replay or move is a campaign from its start: made when the job starts (its frozen
// filter and snapshot count, who, why, the job's id), grown by the ids of each batch the
// system took (refusals excluded), and marked with how the job stopped, so its roll-up is live
// while the job runs. On the broker the tasks run on (a move's target), under the ids it gave
// them. Discard and revoke leave nothing to follow.

function campaignOf(job: BulkJob, auditId: string | null, reason: string | null): NewCampaign | null {
  if (job.action !== 'replay' && !isBulkMove(job.action)) return null;
  const broker = isBulkMove(job.action) ? job.filter.to : job.brokerId;
  if (!broker) return null;
  return {
    broker,
    action: `bulk-${job.action}`,
    who: job.actor ?? 'unknown',
    reason,
    auditId,
    parent: null,
    filter: { ...job.filter, broker: job.brokerId, jobId: job.id },
    ...(isBulkMove(job.action) ? { from: job.brokerId } : {}),
    // Waiting tasks never ran: nothing died before (docs/campaigns.md).
    ...(job.action === 'move-waiting' ? { firstRun: true } : {}),
  };
}

/** The error every task died of before, where the job replays one group; else unknown. */
const beforeOf = (job: BulkJob) => (typeof job.filter.group === 'string' ? job.filter.group : null);

/**
 * What joins the campaign of a batch: a replay's tasks by their ids; a move's under the ids the
 * target gave them, with their ids here, and those an earlier attempt had already put there
 * (`already`: that attempt answered no success, so they join once, now).
 */
export function joining(job: Pick<BulkJob, 'action'>, items: readonly ActedItem[]): ActedItem[] {
  if (!isBulkMove(job.action)) return items.filter((i) => !i.already).map(({ n, id }) => ({ n, id }));
  return items.map((i) => ({ n: i.n, id: i.taskId ?? i.id, from: i.id }));
}

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
  job.onActed = (items) => appendBulkCampaign(job.id, joining(job, items), before);
}

/** The job stopped: its campaign says how (its follow-up settles once every task has a fate). */
export async function followBulkEnd(job: BulkJob): Promise<void> {
  if (!campaignOf(job, null, null)) return;
  const state = job.state === 'done' || job.state === 'cancelled' || job.state === 'failed' ? job.state : null;
  if (!state) return;
  await markBulkCampaign({ id: job.id, state, why: job.error ? `${job.error.code}: ${job.error.message}` : null });
}
