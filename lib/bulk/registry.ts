import { ConsoleError } from '@/lib/brokers/errors';
import { FINISHED } from './job-state';
import { BulkJob } from './runner';

/** Finished jobs stay readable this long (the outcome panel, a reload of the page). */
const KEEP_FINISHED_MS = 60 * 60 * 1000;
/** A snapshot nobody started within this time is dropped: its ids are getting stale. */
const KEEP_QUEUED_MS = 15 * 60 * 1000;
const MAX_JOBS = 200;

// The jobs this process runs (their loops), like the adapters: survives Next's dev-mode module
// reloads through globalThis. The state store (lib/bulk/store.ts) is what every instance reads.
const g = globalThis as unknown as { __potatoqBulkJobs?: Map<string, BulkJob> };
const jobs = (g.__potatoqBulkJobs ??= new Map<string, BulkJob>());

/** A job without a queue filter spans every queue, so it overlaps any job of its action. */
function overlaps(a: BulkJob, b: BulkJob): boolean {
  if (a.brokerId !== b.brokerId || a.action !== b.action) return false;
  return a.filter.queue === undefined || b.filter.queue === undefined || a.filter.queue === b.filter.queue;
}

function describe(j: BulkJob): string {
  return `a ${j.action} job on ${j.filter.queue ? `queue "${j.filter.queue}"` : 'every queue'} of broker "${j.brokerId}" is ${j.state} (${j.id})`;
}

/** Refuses a second running/paused job on the same broker + queue + action. */
export function assertNoOverlap(job: BulkJob): void {
  for (const other of jobs.values()) {
    if (other !== job && other.active && overlaps(job, other))
      throw new ConsoleError('Conflict', `${describe(other)}; wait for it, or cancel it first`);
  }
}

export function prune(now = Date.now()): void {
  for (const [id, j] of jobs) {
    if (j.state === 'queued' && now - j.createdAt.getTime() > KEEP_QUEUED_MS) jobs.delete(id);
    else if (FINISHED.has(j.state) && j.finishedAt && now - j.finishedAt.getTime() > KEEP_FINISHED_MS) jobs.delete(id);
  }
  if (jobs.size <= MAX_JOBS) return;
  const old = [...jobs.values()].filter((j) => !j.active).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const j of old.slice(0, jobs.size - MAX_JOBS)) jobs.delete(j.id);
}

export function registerJob(job: BulkJob): BulkJob {
  prune();
  jobs.set(job.id, job);
  return job;
}

/** The job running or kept in this process, if it belongs to this broker. */
export function findLocal(brokerId: string, jobId: string): BulkJob | null {
  const j = jobs.get(jobId);
  return j && j.brokerId === brokerId ? j : null;
}

/** Every job whose loop runs in this process (for the owner's heartbeat). */
export function activeLocal(): BulkJob[] {
  return [...jobs.values()].filter((j) => j.looping && !j.lost);
}

/** The job, if it belongs to this broker (ids of other brokers' jobs are not revealed). */
export function findJob(brokerId: string, jobId: string): BulkJob {
  const j = jobs.get(jobId);
  if (!j || j.brokerId !== brokerId)
    throw new ConsoleError('NotFound', `no bulk job ${jobId} on broker "${brokerId}" (finished jobs are kept for an hour)`);
  return j;
}

export function listJobs(brokerId: string): BulkJob[] {
  prune();
  return [...jobs.values()].filter((j) => j.brokerId === brokerId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** For tests. */
export function clearJobs(): void {
  jobs.clear();
}
