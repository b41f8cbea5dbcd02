import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { serviceBackend } from './backend';
import { acquireJob, isActive, ownerGone, restoreJob, storeHooks, viewOfRow } from './persist';
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

/** The job to act on here, or the live console that runs it. A job no live console runs is
 *  taken here through its lease (lib/bulk/persist.ts `acquireJob`: exactly one console wins),
 *  marked interrupted first when its console stopped while it was active. */
export async function targetFor(store: BulkStore | null, brokerId: string, jobId: string): Promise<Target> {
  const local = findLocal(brokerId, jobId);
  if (local && local.looping && !local.lost) return { kind: 'local', job: local };
  let row = store ? await store.get(jobId) : null;
  if (row && row.brokerId !== brokerId) row = null;
  if (!row) {
    if (local) return { kind: 'local', job: local };
    throw notFound(brokerId, jobId);
  }
  if (!store) throw notFound(brokerId, jobId);
  if (row.owner !== null && row.owner !== store.me && !ownerGone(row)) return { kind: 'remote', row, store };
  const mine = await acquireJob(store, jobId);
  if (!mine) {
    const now = await store.get(jobId);
    if (!now) throw notFound(brokerId, jobId);
    return { kind: 'remote', row: now, store };
  }
  // The job this process kept, unless the store says more happened to it since.
  if (local && !local.lost && local.state === mine.state && mine.interrupted === null) {
    hook(local, store);
    return { kind: 'local', job: local };
  }
  const job = await restoreJob(store, mine, serviceBackend(brokerId, mine.action, mine.filter));
  if (mine.state === 'queued' || isActive(mine)) registerJob(job);
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

/**
 * Runs `op` on the target, then gives back the lease `targetFor` took unless the job's loop now
 * runs here (a queued job whose start was refused, a finished or interrupted job only looked at
 * or re-paced): otherwise another instance would find it held, by a console not running it.
 */
export async function releasingIdle<T>(store: BulkStore | null, t: Target, op: Promise<T>): Promise<T> {
  try {
    return await op;
  } finally {
    if (store && t.kind === 'local' && !t.job.looping) await store.release(t.job.id).catch(() => undefined);
  }
}

/** Makes a restored job's hooks current (a job created here before the store was open has none). */
export function hook(job: BulkJob, store: BulkStore | null): void {
  if (store && !job.hooks) job.hooks = storeHooks(store);
}
