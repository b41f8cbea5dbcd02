import 'server-only';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { processId } from '@/lib/state/process-id';
import { FINISHED } from './job-state';
import { BulkJob, type JobHooks } from './runner';
import type { BulkJobView } from './schema';
import type { BulkBackend } from './snapshot';
import { HEARTBEAT_MS, OWNER_GONE_MS, type BulkRow, type BulkStore } from './store';

export { HEARTBEAT_MS, OWNER_GONE_MS };

// The glue between running jobs and the state store: a job's row, a view from a row (any
// console instance answers for any job), taking over a job whose console stopped.

/** This console process, as an owner of jobs (the state store's one process id). */
export const INSTANCE = processId();

export const INTERRUPTED_IN_FLIGHT =
  'the console running the job stopped while this batch was with the broker: it may or may not have been applied; check before retrying';

export function rowOf(job: BulkJob, extra: { owner?: string | null; interrupted?: BulkRow['interrupted'] } = {}): BulkRow {
  const v = job.view(0);
  const s = job.snapshotInfo;
  return {
    id: job.id,
    brokerId: job.brokerId,
    action: job.action,
    filter: job.filter,
    state: job.state,
    rate: job.rate,
    batchSize: job.batch,
    expectedCount: job.expected,
    snapshotAt: s.at.toISOString(),
    capped: s.capped,
    searchedNewest: s.searchedNewest,
    createdAt: job.createdAt.toISOString(),
    startedAt: v.startedAt,
    finishedAt: FINISHED.has(job.state) ? (v.finishedAt ?? new Date().toISOString()) : null,
    error: job.error,
    stoppedAt: v.stoppedAt,
    done: job.done,
    inFlight: job.inFlight,
    total: job.total,
    succeeded: v.progress.succeeded,
    succeededSample: [...job.log.succeededSample],
    skipped: v.progress.skipped,
    failed: v.progress.failed,
    batches: v.progress.batches,
    auditId: job.auditId,
    // The lease is given back when the job stops (finished, or still queued: whoever starts it
    // takes it), never while its loop runs here (a cancel saved here waits for the batch).
    owner: extra.owner !== undefined ? extra.owner : !job.looping && (FINISHED.has(job.state) || job.state === 'queued') ? null : INSTANCE,
    heartbeatMs: Date.now(),
    control: null,
    interrupted: extra.interrupted ?? null,
  };
}

const SKIPPED = new Set(['missing', 'running']);

/** A job's view from its stored row: what every console instance shows. */
export function viewOfRow(r: BulkRow, outcomes: ActionOutcome[], limit: number): BulkJobView {
  const skipped = outcomes.filter((o) => SKIPPED.has(o.outcome));
  const failed = outcomes.filter((o) => !SKIPPED.has(o.outcome));
  return {
    id: r.id,
    brokerId: r.brokerId,
    action: r.action,
    filter: r.filter,
    state: r.state,
    snapshotAt: r.snapshotAt,
    capped: r.capped,
    searchedNewest: r.searchedNewest,
    expectedCount: r.expectedCount,
    rate: r.rate,
    batchSize: r.batchSize,
    progress: {
      total: r.total,
      processed: r.succeeded + r.skipped + r.failed,
      succeeded: r.succeeded,
      skipped: r.skipped,
      failed: r.failed,
      batches: r.batches,
    },
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    error: r.error,
    stoppedAt: r.stoppedAt ?? null,
    succeededSample: r.succeededSample,
    skippedOutcomes: skipped.slice(0, limit),
    failedOutcomes: failed.slice(0, limit),
    outcomesTruncated: r.skipped > limit || r.failed > limit,
    interrupted: r.interrupted,
  };
}

/** Keeps the row current and hears requests other consoles left for the job. */
export function storeHooks(store: BulkStore): JobHooks {
  return {
    saved: (job, outcomes) => store.save(rowOf(job), outcomes),
    async poll(job) {
      const r = await store.get(job.id);
      if (!r?.control) return null;
      await store.request(job.id, null);
      return r.control;
    },
  };
}

export const ownerGone = (r: BulkRow, now = Date.now()) => r.owner === null || now - r.heartbeatMs > OWNER_GONE_MS;
export const isActive = (r: BulkRow) => r.state === 'running' || r.state === 'paused';
/** Another console ran `r` and stopped (its lease ran out, or is gone) before marking it interrupted. */
export const stoppedElsewhere = (r: BulkRow, now = Date.now()) =>
  isActive(r) && r.owner !== INSTANCE && ownerGone(r, now) && !(r.owner === null && r.interrupted !== null);

/** A row no console's loop writes any more although it is active: its console stopped (the
 *  last writer of an interrupted row is `interrupt`, which sets `interrupted`; a loop clears it). */
const leftBehind = (r: BulkRow) => isActive(r) && r.interrupted === null;

/** `r` (read while holding its lease) made paused, with where it stopped. The batch that was with
 *  the broker is reported failed ("may have been applied"), never sent again. */
async function interrupt(store: BulkStore, r: BulkRow, owner: string | null, now: number): Promise<BulkRow> {
  const ids = r.inFlight ? (await store.ids(r.id)).slice(r.done, r.done + r.inFlight) : [];
  const lost: ActionOutcome[] = ids.map((id) => ({ id, outcome: 'error', message: INTERRUPTED_IN_FLIGHT }));
  const next: BulkRow = {
    ...r,
    state: 'paused',
    done: r.done + ids.length,
    inFlight: 0,
    failed: r.failed + ids.length,
    owner,
    heartbeatMs: now,
    control: null,
    interrupted: { at: new Date(now).toISOString(), processed: r.done, inFlight: ids.length },
  };
  await store.save(next, lost);
  return next;
}

/**
 * Takes job `jobId` for this console: its lease first (of several consoles exactly one wins;
 * null for the others), then the row read again, which no other console can write from then on,
 * so what it says is final. A row its stopped console left active is made paused with where it
 * stopped (`interrupt`). The lease is kept: the caller runs the job or saves it with owner null.
 */
export async function acquireJob(store: BulkStore, jobId: string, now = Date.now()): Promise<BulkRow | null> {
  if (!(await store.claim(jobId))) return null;
  const r = await store.get(jobId);
  if (!r) return null;
  return leftBehind(r) ? interrupt(store, r, store.me, now) : r;
}

/**
 * A job whose console stopped while it was active (its lease ran out): made paused and
 * ownerless, with where it stopped, by the one console that wins its lease; null for the others
 * (or when a live console has it again).
 */
export async function markInterrupted(store: BulkStore, r: BulkRow, now = Date.now()): Promise<BulkRow | null> {
  if (!(await store.claim(r.id))) return null;
  const cur = await store.get(r.id);
  if (!cur) return null;
  if (leftBehind(cur)) return interrupt(store, cur, null, now);
  await store.save({ ...cur, owner: null });
  return { ...cur, owner: null };
}

/** Rebuilds a stored job as a local one (to start, resume or cancel it here). */
export async function restoreJob(store: BulkStore, r: BulkRow, backend: BulkBackend): Promise<BulkJob> {
  const [ids, outcomes] = await Promise.all([store.ids(r.id), store.outcomes(r.id, Number.MAX_SAFE_INTEGER)]);
  const job = new BulkJob({
    brokerId: r.brokerId,
    action: r.action,
    filter: r.filter,
    snapshot: { ids, capped: r.capped, searchedNewest: r.searchedNewest, at: new Date(r.snapshotAt) },
    backend,
    expectedCount: r.expectedCount ?? undefined,
    rate: r.rate,
    batchSize: r.batchSize,
    restored: {
      id: r.id,
      createdAt: new Date(r.createdAt),
      startedAt: r.startedAt ? new Date(r.startedAt) : null,
      state: r.state,
      done: r.done,
      auditId: r.auditId,
      log: { succeeded: r.succeeded, sample: r.succeededSample, batches: r.batches, outcomes },
    },
  });
  job.hooks = storeHooks(store);
  return job;
}
