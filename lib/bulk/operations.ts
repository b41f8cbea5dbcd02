import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { defaultState } from '@/lib/brokers/schema';
import { brokerModel } from '@/lib/brokers/service';
import { gate } from '@/lib/actions/gate';
import { resolvePrincipal } from '@/lib/actions/principal';
import { completeAuditEntry } from '@/lib/audit/complete';
import { followBulk, followBulkEnd } from './follow';
import { MAX_IDS } from '@/lib/audit/types';
import { serviceBackend } from './backend';
import { hook, notFound, releasingIdle, requestRemote, targetFor } from './control';
import { HEARTBEAT_MS, INSTANCE, isActive, markInterrupted, ownerGone, rowOf, stoppedElsewhere, storeHooks, viewOfRow } from './persist';
import { activeLocal, assertNoOverlap, findLocal, listJobs, registerJob } from './registry';
import { VIEW_OUTCOMES } from './job-state';
import { BulkJob } from './runner';
import { OwnershipLost, type BulkStore } from './store';
import { getBulkStore } from './store-open';
import { bulkCapability, isBulkMove, onTasks, ZBulkAction, ZBulkControl, ZBulkCreate, type BulkJobView } from './schema';
import { requireMoveTarget } from './move-target';
import { takeSnapshot, type BulkBackend } from './snapshot';

// Bulk jobs behind the same gate as single actions: creating the snapshot and starting need
// the action's capability and authorisation; pause/resume/cancel need authorisation for the
// action (a job may always be stopped, even if the broker has since become read-only).

/** The state store, or null when it cannot be opened (jobs then live in this process only). */
async function storeOrNull(): Promise<BulkStore | null> {
  try {
    const store = await getBulkStore();
    startHeartbeat(store);
    return store;
  } catch (e) {
    console.error(JSON.stringify({ event: 'console.bulk-store-error', message: String(e) }));
    return null;
  }
}

const hb = globalThis as unknown as { __potatoqBulkHeartbeat?: NodeJS.Timeout };
/** While this process runs jobs, it renews their leases every HEARTBEAT_MS (other consoles take
 *  a job over only once its lease, OWNER_GONE_MS long, ran out; a job whose lease is lost stops). */
function startHeartbeat(store: BulkStore): void {
  if (hb.__potatoqBulkHeartbeat) return;
  hb.__potatoqBulkHeartbeat = setInterval(() => {
    for (const j of activeLocal())
      if (j.hooks)
        void store.save(rowOf(j)).catch((e: unknown) => {
          if (e instanceof OwnershipLost) j.lost = true;
        });
  }, HEARTBEAT_MS);
  hb.__potatoqBulkHeartbeat.unref();
}

const OVERLAP_SCAN = 200;
/** Another console's running/paused job on the same broker + queue + action. */
async function assertNoStoredOverlap(store: BulkStore | null, job: BulkJob): Promise<void> {
  if (!store) return;
  for (const r of await store.list(job.brokerId, OVERLAP_SCAN)) {
    if (r.id === job.id || r.action !== job.action || !isActive(r) || ownerGone(r) || r.owner === INSTANCE) continue;
    if (r.filter.queue === undefined || job.filter.queue === undefined || r.filter.queue === job.filter.queue)
      throw new ConsoleError(
        'Conflict',
        `a ${r.action} job on ${r.filter.queue ? `queue "${r.filter.queue}"` : 'every queue'} of broker "${r.brokerId}" is ${r.state} on another console instance (${r.id}); wait for it, or cancel it first`,
      );
  }
}

/** For tests: a different backend per job (a fake adapter). */
type BackendFor = (brokerId: string, action: BulkJob['action'], filter: BulkJob['filter']) => BulkBackend;

function actionOf(input: unknown): BulkJob['action'] {
  const a = ZBulkAction.safeParse((input as { action?: unknown } | null)?.action);
  if (!a.success)
    throw new ConsoleError('InvalidInput', `action must be one of ${ZBulkAction.options.join(', ')}`, {
      action: `must be one of ${ZBulkAction.options.join(', ')}`,
    });
  return a.data;
}

/** A worker owns the tasks of some states (`StateDecl.owned`: potatoq's running): the console
 *  never revokes those, so a revoke job over one is refused before anything is read. */
function refuseOwned(brokerId: string, state: string | undefined): void {
  const states = brokerModel(brokerId)?.states ?? [];
  const st = states.find((s) => s.key === (state ?? defaultState(states)?.key));
  if (!st?.owned) return;
  const free = states.filter((s) => !s.owned).map((s) => s.key);
  const why = `${st.key} tasks are owned by a worker and never revoked by the console${free.length ? `; choose ${free.join(' or ')}` : ''}`;
  throw new ConsoleError('InvalidInput', why, { 'filter.state': why });
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
    capability: () => bulkCapability(action, brokerModel(brokerId)),
    schema: ZBulkCreate,
    input,
    headers,
    reasonRequired: false,
    recorded: false,
    run: async (req, ctx) => {
      if (isBulkMove(req.action)) await requireMoveTarget(ctx.principal, brokerId, req.filter.to, req.action);
      if (onTasks(req.action)) refuseOwned(brokerId, req.filter.state);
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
      const store = await storeOrNull();
      await assertNoStoredOverlap(store, job);
      registerJob(job);
      if (store) {
        job.hooks = storeHooks(store);
        await store.create(rowOf(job), job.snapshotIds());
      }
      return job.view();
    },
  });
}

/** The audit entry of a start is completed with the per-id outcomes once the job stops (by
 *  whichever console runs it then). */
function completeWhenFinished(job: BulkJob, auditId: string | null): void {
  void job.finished.then(async () => {
    // A paused job read back from the store: its loop runs later. A lost one: another console has it.
    if (job.active || job.lost) return;
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
    await followBulkEnd(job);
    if (!auditId) return;
    const details = { jobId: job.id, state: v.state, ...p, notReached: p.total - p.processed, error: v.error };
    // The entry began with the first MAX_IDS snapshot ids; the ids acted on beyond them join it.
    const beyond = job.snapshotIds().slice(MAX_IDS, Math.max(MAX_IDS, p.processed));
    await completeAuditEntry(
      auditId,
      { succeeded: v.succeededSample, failed: [...v.skippedOutcomes, ...v.failedOutcomes] },
      details,
      beyond,
    ).catch((e) => console.error(JSON.stringify({ event: 'console.audit-error', jobId: job.id, message: String(e) })));
  });
}

/** start | pause | resume | cancel | rate of one job, from any console instance. Starting is
 *  the audited write (reason required, as for every bulk action); the controls are recorded
 *  without one. A job another live instance runs gets the request between its batches. */
export async function controlBulk(brokerId: string, input: unknown, headers: Headers): Promise<BulkJobView> {
  // Who is asking comes first: whether a job id exists is not for anonymous callers (401, not 404).
  await resolvePrincipal(headers);
  const raw = ZBulkControl.safeParse(input);
  const jobId = raw.success ? raw.data.jobId : String((input as { jobId?: unknown } | null)?.jobId ?? '');
  const store = await storeOrNull();
  const target = await targetFor(store, brokerId, jobId);
  const meta = target.kind === 'local' ? { action: target.job.action, filter: target.job.filter, total: target.job.total } : target.row;
  const op = raw.success ? raw.data.op : 'start';
  const writes = op === 'start' || op === 'resume';
  const ran = gate({
    action: op === 'start' ? `bulk-${meta.action}` : `bulk-${op}`,
    brokerId,
    capability: writes ? () => bulkCapability(meta.action, brokerModel(brokerId)) : null,
    schema: ZBulkControl,
    input,
    headers,
    reasonRequired: op === 'start',
    // A start is filed under every id of its snapshot too (each task's history shows the job).
    target: (c) => ({
      filter: meta.filter,
      count: meta.total,
      ...(meta.filter.queue ? { queue: meta.filter.queue } : {}),
      ...(c.op === 'start' && target.kind === 'local' ? { ids: target.job.snapshotIds().slice(0, MAX_IDS) } : {}),
    }),
    run: async (c, ctx) => {
      if (target.kind === 'remote') return requestRemote(target, c.op, c.rate);
      const job = target.job;
      hook(job, store);
      if (writes && isBulkMove(job.action)) await requireMoveTarget(ctx.principal, brokerId, job.filter.to, job.action);
      switch (c.op) {
        case 'start':
          if (c.confirmCount !== undefined && c.confirmCount !== job.total) {
            throw new ConsoleError('Conflict', `the snapshot holds ${job.total} ids, not the ${c.confirmCount} confirmed`);
          }
          assertNoOverlap(job);
          await assertNoStoredOverlap(store, job);
          if (c.rate !== undefined) job.setRate(c.rate);
          job.auditId = ctx.auditId;
          job.actor = ctx.principal.user;
          await followBulk(job, ctx.auditId, ctx.reason);
          job.start();
          completeWhenFinished(job, ctx.auditId);
          break;
        case 'pause':
          job.pause();
          break;
        case 'resume': {
          assertNoOverlap(job);
          await assertNoStoredOverlap(store, job);
          const wasFailed = job.state === 'failed';
          job.actor = ctx.principal.user;
          if (c.rate !== undefined && !wasFailed) job.setRate(c.rate);
          // Its campaign goes on (reopened after a failure; made if the console that started it could not).
          if (!job.looping) await followBulk(job, job.auditId, null);
          job.resume();
          if (c.rate !== undefined && wasFailed) job.setRate(c.rate);
          // A failed job's start entry is complete; this resume's entry gets the new outcomes.
          if (wasFailed) completeWhenFinished(job, ctx.auditId);
          // Read back from the store (its console stopped): its loop continues here.
          if (!job.looping) {
            registerJob(job);
            job.continueRestored();
            completeWhenFinished(job, job.auditId);
          }
          break;
        }
        case 'cancel': {
          const idle = !job.looping;
          job.cancel();
          // Nothing runs it here (queued, or interrupted): it stops now, and so does its entry.
          if (idle && job.auditId) completeWhenFinished(job, job.auditId);
          break;
        }
        case 'rate':
          if (c.rate === undefined) throw new ConsoleError('InvalidInput', 'rate is required', { rate: 'required' });
          job.setRate(c.rate);
          break;
        default: {
          const never: never = c.op;
          throw new ConsoleError('InvalidInput', `unknown operation ${String(never)}`);
        }
      }
      if (store && job.hooks) await store.save(rowOf(job)).catch(() => undefined);
      return job.view();
    },
    audit: (c, v) => ({ bulk: c.op, jobId: v.id, count: v.progress.total, processed: v.progress.processed, rate: v.rate }),
  });
  return releasingIdle(store, target, ran);
}

/** Jobs whose console stopped while they were active: paused, with where they stopped. */
async function sweep(store: BulkStore, brokerId: string) {
  const rows = await store.list(brokerId, MAX_LISTED);
  return Promise.all(rows.map(async (r) => (stoppedElsewhere(r) ? ((await markInterrupted(store, r)) ?? r) : r)));
}

const MAX_LISTED = 200;
const KEEP_FINISHED_MS = 60 * 60 * 1000;
const KEEP_QUEUED_MS = 15 * 60 * 1000;

export async function getBulk(brokerId: string, jobId: string, full: boolean, headers: Headers): Promise<BulkJobView> {
  await resolvePrincipal(headers);
  const limit = full ? Infinity : VIEW_OUTCOMES;
  const store = await storeOrNull();
  if (!store) {
    const local = findLocal(brokerId, jobId);
    if (!local) throw notFound(brokerId, jobId);
    return local.view(limit);
  }
  let r = await store.get(jobId);
  if (!r || r.brokerId !== brokerId) {
    // Made before the store could be opened: this process still has it.
    const local = findLocal(brokerId, jobId);
    if (local) return local.view(limit);
    throw notFound(brokerId, jobId);
  }
  if (stoppedElsewhere(r)) r = (await markInterrupted(store, r)) ?? r;
  const n = full ? Number.MAX_SAFE_INTEGER : VIEW_OUTCOMES * 2;
  return viewOfRow(r, await store.outcomes(r.id, n), limit);
}

/** This broker's jobs as every console instance sees them, newest first, without outcomes. */
export async function listBulk(brokerId: string, headers: Headers): Promise<BulkJobView[]> {
  await resolvePrincipal(headers);
  const store = await storeOrNull();
  if (!store) return listJobs(brokerId).map((j) => j.view(0));
  const now = Date.now();
  await store.prune(now - KEEP_FINISHED_MS, now - KEEP_QUEUED_MS).catch(() => undefined);
  const rows = await sweep(store, brokerId);
  const seen = new Set(rows.map((r) => r.id));
  const extra = listJobs(brokerId)
    .filter((j) => !seen.has(j.id))
    .map((j) => j.view(0));
  return [...rows.map((r) => viewOfRow(r, [], 0)), ...extra];
}
