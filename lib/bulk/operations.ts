import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { gate } from '@/lib/actions/gate';
import { resolvePrincipal } from '@/lib/actions/principal';
import { completeAuditEntry } from '@/lib/audit/complete';
import { serviceBackend } from './backend';
import { assertNoOverlap, findJob, listJobs, registerJob } from './registry';
import { BulkJob, VIEW_OUTCOMES } from './runner';
import { ZBulkAction, ZBulkControl, ZBulkCreate, type BulkJobView } from './schema';
import { takeSnapshot, type BulkBackend } from './snapshot';

// Bulk jobs behind the same gate as single actions: creating the snapshot and starting need
// the action's capability and authorisation; pause/resume/cancel need authorisation for the
// action (a job may always be stopped, even if the broker has since become read-only).

/** For tests: a different backend per job (a fake adapter). */
type BackendFor = (brokerId: string, action: BulkJob['action'], filter: BulkJob['filter']) => BulkBackend;

function actionOf(input: unknown): BulkJob['action'] {
  const a = ZBulkAction.safeParse((input as { action?: unknown } | null)?.action);
  if (!a.success)
    throw new ConsoleError('InvalidInput', 'action must be replay, discard or revoke', { action: 'must be replay, discard or revoke' });
  return a.data;
}

/** Captures the ids matching the filter now; returns the job (state queued) to confirm.
 *  Nothing is written yet, so this is not an audit entry; the start is. */
export async function createBulk(
  brokerId: string,
  input: unknown,
  headers: Headers,
  backendFor: BackendFor = serviceBackend,
): Promise<BulkJobView> {
  const action = actionOf(input);
  return gate({
    action: `bulk-${action}`,
    brokerId,
    capability: action,
    schema: ZBulkCreate,
    input,
    headers,
    reasonRequired: false,
    recorded: false,
    run: async (req) => {
      const backend = backendFor(brokerId, req.action, req.filter);
      const snapshot = await takeSnapshot(backend);
      const job = new BulkJob({
        brokerId,
        action: req.action,
        filter: req.filter,
        snapshot,
        backend,
        expectedCount: req.expectedCount,
        rate: req.rate ?? null,
      });
      assertNoOverlap(job);
      return registerJob(job).view();
    },
  });
}

/** The audit entry of a start is completed with the per-id outcomes once the job stops. */
function completeWhenFinished(job: BulkJob, auditId: string | null): void {
  void job.finished.then(async () => {
    const v = job.view(Infinity);
    const p = v.progress;
    console.info(
      JSON.stringify({
        at: new Date().toISOString(),
        event: 'console.bulk',
        broker: job.brokerId,
        action: job.action,
        jobId: job.id,
        state: job.state,
        ...p,
      }),
    );
    if (!auditId) return;
    const details = { jobId: job.id, state: v.state, ...p, notReached: p.total - p.processed, error: v.error };
    await completeAuditEntry(auditId, { succeeded: v.succeededSample, failed: [...v.skippedOutcomes, ...v.failedOutcomes] }, details).catch(
      (e) => console.error(JSON.stringify({ event: 'console.audit-error', jobId: job.id, message: String(e) })),
    );
  });
}

/** start | pause | resume | cancel | rate of one job. Starting is the audited write (reason
 *  required, as for every bulk action); the controls are recorded without one. */
export async function controlBulk(brokerId: string, input: unknown, headers: Headers): Promise<BulkJobView> {
  // Who is asking comes first: whether a job id exists is not for anonymous callers (401, not 404).
  await resolvePrincipal(headers);
  const raw = ZBulkControl.safeParse(input);
  const job = findJob(brokerId, raw.success ? raw.data.jobId : String((input as { jobId?: unknown } | null)?.jobId ?? ''));
  const op = raw.success ? raw.data.op : 'start';
  const writes = op === 'start' || op === 'resume';
  return gate({
    action: op === 'start' ? `bulk-${job.action}` : `bulk-${op}`,
    brokerId,
    capability: writes ? job.action : null,
    schema: ZBulkControl,
    input,
    headers,
    reasonRequired: op === 'start',
    target: () => ({ filter: job.filter, count: job.total, ...(job.filter.queue ? { queue: job.filter.queue } : {}) }),
    run: async (c, ctx) => {
      switch (c.op) {
        case 'start':
          if (c.confirmCount !== undefined && c.confirmCount !== job.total) {
            throw new ConsoleError('Conflict', `the snapshot holds ${job.total} ids, not the ${c.confirmCount} confirmed`);
          }
          assertNoOverlap(job);
          if (c.rate !== undefined) job.setRate(c.rate);
          job.start();
          completeWhenFinished(job, ctx.auditId);
          break;
        case 'pause':
          job.pause();
          break;
        case 'resume': {
          assertNoOverlap(job);
          const wasFailed = job.state === 'failed';
          if (c.rate !== undefined && !wasFailed) job.setRate(c.rate);
          job.resume();
          if (c.rate !== undefined && wasFailed) job.setRate(c.rate);
          // A failed job's start entry is complete; this resume's entry gets the new outcomes.
          if (wasFailed) completeWhenFinished(job, ctx.auditId);
          break;
        }
        case 'cancel':
          job.cancel();
          break;
        case 'rate':
          if (c.rate === undefined) throw new ConsoleError('InvalidInput', 'rate is required', { rate: 'required' });
          job.setRate(c.rate);
          break;
        default: {
          const never: never = c.op;
          throw new ConsoleError('InvalidInput', `unknown operation ${String(never)}`);
        }
      }
      return job.view();
    },
    audit: (c, v) => ({ bulk: c.op, jobId: v.id, count: v.progress.total, processed: v.progress.processed, rate: v.rate }),
  });
}

export async function getBulk(brokerId: string, jobId: string, full: boolean, headers: Headers): Promise<BulkJobView> {
  await resolvePrincipal(headers);
  return findJob(brokerId, jobId).view(full ? Infinity : VIEW_OUTCOMES);
}

export async function listBulk(brokerId: string, headers: Headers): Promise<BulkJobView[]> {
  await resolvePrincipal(headers);
  return listJobs(brokerId).map((j) => j.view(0));
}
