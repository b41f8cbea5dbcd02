import 'server-only';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { AdapterContext } from '@/lib/brokers/adapter-context';
import type { ValueLetter } from '@/lib/brokers/types';
import type { QfClient } from './client';
import { letGo, oneAtATime, type Steps } from './edit-replay';
import { isPaused, recoverQfLease } from './edit-recover';
import { readJob } from './jobs';

// A pending QueueFlow job moved to a broker of the positional call model (lib/brokers/
// move-waiting.ts, through the call mapping read backwards). QueueFlow's cancel by id is not
// conditional: it also cancels a running job (its handler keeps running until it checks
// `ctx.cancelled`). So the take pauses the job's queue under the console's hold (as edit-replay
// does: QueueFlow's claim skips paused queues), reads the job again, cancels it only if it is
// still pending with the delivery count the move read, and resumes the queue. A job a worker
// leased before the pause is running: refused, nothing cancelled or sent.

const claimOf = (deliveries: number) => JSON.stringify({ deliveries });

/** Pending job `id` as a letter the call mapping converts back, with its delivery count as the
 *  claim. Null: no such job, or not pending. A job scheduled for later is InvalidInput. */
export async function peekPendingQf(
  client: QfClient,
  id: string,
  now = Date.now(),
): Promise<{ letter: ValueLetter; claim: string } | null> {
  const job = await readJob(client, id);
  if (!job || job.status !== 'pending') return null;
  if (job.scheduled_at && Date.parse(job.scheduled_at) > now)
    throw new ConsoleError(
      'InvalidInput',
      `the job is scheduled for ${job.scheduled_at}, and the other broker's import enqueues a task ready now, so it would run early: move it once it is due`,
      { id: 'scheduled for later' },
    );
  const p = job.config?.priority;
  const letter: ValueLetter = {
    id,
    jobId: job.id,
    task: job.task_name,
    queue: job.queue_name,
    payload: job.payload,
    priority: typeof p === 'number' && Number.isInteger(p) ? p : null,
  };
  return { letter, claim: claimOf(job.delivery_count) };
}

/** Whether the job is still the one the move read: pending, leased no more times since. */
export function stillClaimed(job: { status: string; delivery_count: number } | null, claim: string): boolean {
  let want: unknown;
  try {
    want = (JSON.parse(claim) as { deliveries?: unknown }).deliveries;
  } catch {
    return false;
  }
  return job !== null && job.status === 'pending' && job.delivery_count === want;
}

/** Cancels pending job `id` while its queue is paused; false when a worker took it first. */
export async function takePendingQf(client: QfClient, brokerId: string, id: string, claim: string, ctx: AdapterContext): Promise<boolean> {
  const first = await readJob(client, id);
  if (!stillClaimed(first, claim)) return false;
  const queue = first!.queue_name;
  return oneAtATime(`${brokerId}\u0000${queue}`, async () => {
    const taken = await ctx.leases.take(brokerId, queue, { pending: id }, (stale) => recoverQfLease(client, ctx.leases, stale, ctx.audit));
    if ('busy' in taken)
      throw new ConsoleError(
        'Conflict',
        `another console (${taken.busy.owner}) holds queue ${queue} since ${taken.busy.startedAt}; nothing was cancelled: move it again in a moment`,
      );
    const state: Steps = { wasPaused: null, keepPaused: false };
    let took = false;
    let failure: unknown = null;
    try {
      state.wasPaused = await isPaused(client, queue);
      if (!state.wasPaused) {
        // Recorded before the pause: a console dying right after it leaves a hold that says so.
        await taken.held.mark({ pausedByConsole: true });
        await client.post(`/api/v1/queues/${encodeURIComponent(queue)}/pause`, {});
      }
      // Paused: no worker can lease it now; one that did before shows it running here.
      if (stillClaimed(await readJob(client, id), claim)) {
        await client.post(`/api/v1/jobs/${encodeURIComponent(id)}/cancel`, {});
        took = true;
      }
    } catch (e) {
      // 409: it finished or was cancelled meanwhile (not by this take).
      if (!(isConsoleError(e) && e.code === 'Conflict')) failure = e;
    }
    const note = await letGo(client, queue, taken.held, state);
    if (note) console.error(JSON.stringify({ event: 'console.move-pending-resume', queue, message: note }));
    if (failure) throw failure;
    return took;
  });
}

/** Whether an earlier take cancelled job `id`: it is cancelled (a worker's lease shows it
 *  running or finished instead). NotFound when QueueFlow no longer has it (its retention). */
export async function tookPendingQf(client: QfClient, id: string): Promise<boolean> {
  const job = await readJob(client, id);
  if (!job) throw new ConsoleError('NotFound', `QueueFlow no longer has job ${id}, so whether the earlier move took it is unknown`);
  return job.status === 'cancelled';
}
