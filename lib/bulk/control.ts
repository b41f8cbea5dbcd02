import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { serviceBackend } from './backend';
import { INSTANCE, isActive, markInterrupted, ownerGone, restoreJob, storeHooks, viewOfRow } from './persist';
import { findLocal, registerJob } from './registry';
import type { BulkJob } from './runner';
import type { BulkJobView, BulkOp } from './schema';
import type { BulkRow, BulkStore } from './store';

// Which console acts on a job: the one running its loop. Another instance leaves it a request
// (applied between batches) and waits for it; a job whose console is gone is taken over.

/** How long a request to another console waits to be applied before answering as it stands. */
const REQUEST_WAIT_MS = 5_000;

export const notFound = (brokerId: string, jobId: string) =>
  new ConsoleError('NotFound', `no bulk job ${jobId} on broker "${brokerId}" (finished jobs are kept for an hour)`);

export type Target = { kind: 'local'; job: BulkJob } | { kind: 'remote'; row: BulkRow; store: BulkStore };

/** The job to act on here, or the live console that runs it. Gone consoles' jobs are marked
 *  interrupted first; an ownerless job is taken over (restored as a local job). */
export async function targetFor(store: BulkStore | null, brokerId: string, jobId: string): Promise<Target> {
  const local = findLocal(brokerId, jobId);
  if (local && (local.active || local.looping)) return { kind: 'local', job: local };
  let row = store ? await store.get(jobId) : null;
  if (row && row.brokerId !== brokerId) row = null;
  if (!row) {
    if (local) return { kind: 'local', job: local };
    throw notFound(brokerId, jobId);
  }
  if (!store) throw notFound(brokerId, jobId);
  if (local && local.state === row.state && (row.owner === INSTANCE || row.owner === null)) return { kind: 'local', job: local };
  // A queued snapshot may be started by any instance (behind a load balancer the next request
  // lands anywhere): it is taken over below. An active job stays with its live console.
  if (row.owner !== INSTANCE && row.owner !== null && !ownerGone(row) && isActive(row)) {
    return { kind: 'remote', row, store };
  }
  if (isActive(row) && row.owner !== null && ownerGone(row)) {
    row = (await markInterrupted(store, row)) ?? (await store.get(jobId));
    if (!row) throw notFound(brokerId, jobId);
    if (row.owner !== null && row.owner !== INSTANCE) return { kind: 'remote', row, store };
  }
  if (row.state !== 'queued' && !isActive(row))
    return { kind: 'local', job: await restoreJob(store, row, serviceBackend(brokerId, row.action, row.filter)) };
  // Take it over: only one console wins the compare-and-set.
  if (!(await store.claim(row.id, { owner: row.owner, heartbeatMs: row.heartbeatMs }, INSTANCE, Date.now()))) {
    const now = await store.get(jobId);
    if (!now) throw notFound(brokerId, jobId);
    return { kind: 'remote', row: now, store };
  }
  const job = await restoreJob(store, row, serviceBackend(brokerId, row.action, row.filter));
  registerJob(job);
  return { kind: 'local', job };
}

const applied = (op: BulkOp, r: BulkRow) =>
  r.control === null &&
  (op === 'pause'
    ? r.state !== 'running'
    : op === 'resume'
      ? r.state !== 'paused'
      : op === 'cancel'
        ? !isActive(r) && r.state !== 'queued'
        : true);

/** Leaves `op` for the console running the job and waits (briefly) until it was applied. */
export async function requestRemote(
  t: Extract<Target, { kind: 'remote' }>,
  op: BulkOp,
  rate: number | null | undefined,
): Promise<BulkJobView> {
  if (op === 'start') throw new ConsoleError('Conflict', `job ${t.row.id} is ${t.row.state} on another console instance`);
  if (op !== 'rate' && op !== 'cancel' && !(op === 'pause' ? t.row.state === 'running' : t.row.state === 'paused')) {
    throw new ConsoleError('Conflict', `job is ${t.row.state}; cannot ${op} it`);
  }
  await t.store.request(t.row.id, { op, ...(rate !== undefined ? { rate } : {}) });
  const until = Date.now() + REQUEST_WAIT_MS;
  let r = t.row;
  while (Date.now() < until) {
    await new Promise((res) => setTimeout(res, 200));
    r = (await t.store.get(t.row.id)) ?? r;
    if (applied(op, r)) break;
  }
  return viewOfRow(r, await t.store.outcomes(r.id, 2_000), 1_000);
}

/** Makes a restored job's hooks current (a job created here before the store was open has none). */
export function hook(job: BulkJob, store: BulkStore | null): void {
  if (store && !job.hooks) job.hooks = storeHooks(store);
}
