import 'server-only';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { AdapterContext } from '@/lib/brokers/adapter-context';
import { actionResult, reasonOf } from '@/lib/brokers/kit/results';
import type { ActionOutcome, ActionResult } from '@/lib/brokers/schema';
import type { ValueLetter } from '@/lib/brokers/types';
import type { QfClient } from './client';
import { readLetter } from './dead';
import { letGo, oneAtATime, pauseAndReplay, type Steps } from './edit-replay';
import { recoverQfLease, type EditDetail } from './edit-recover';
import { readJob } from './jobs';

// A QueueFlow dead letter moved to another broker (lib/brokers/move.ts, through a call mapping).
// QueueFlow cannot delete a letter: its replay is the only way to mark one, and a replay creates
// a pending copy. So the letter leaves as edit-replay leaves it (edit-replay.ts), minus the
// edited job: its queue paused under the console's hold, the letter replayed (once, in
// QueueFlow's transaction), the copy cancelled while no worker can lease it, the queue resumed.
// The letter then reads as replayed, and its replay job as cancelled; the move's audit entries
// (here and on the target) say where it went. A console that dies mid-way leaves a hold that
// another recovers (edit-recover.ts: `moved` cancels the copy).

/** The letter as its job: what a move back converts. Null: no such letter, or replayed already. */
export async function exportValueQf(client: QfClient, id: string): Promise<ValueLetter | null> {
  const letter = await readLetter(client, id);
  if (!letter || letter.replay_job_id) return null;
  const job = await readJob(client, letter.job_id);
  if (!job)
    throw new ConsoleError(
      'InvalidInput',
      `QueueFlow no longer has the job of dead letter ${id} (its retention removed it): nothing to move`,
    );
  const p = job.config?.priority;
  return {
    id,
    jobId: job.id,
    task: job.task_name,
    queue: job.queue_name,
    payload: job.payload,
    priority: typeof p === 'number' && Number.isInteger(p) ? p : null,
  };
}

export async function removeMovedQf(
  client: QfClient,
  brokerId: string,
  ids: string[],
  ctx: AdapterContext,
  to?: { id: string; name: string },
): Promise<ActionResult> {
  const unique = [...new Set(ids)];
  const out: ActionOutcome[] = [];
  for (const id of unique)
    out.push(await removeOne(client, brokerId, id, ctx, to?.name ?? 'another broker').catch((e: unknown) => failed(id, e)));
  return actionResult('discard', brokerId, unique, out);
}

const failed = (id: string, e: unknown): ActionOutcome =>
  isConsoleError(e) && e.code === 'NotFound'
    ? { id, outcome: 'missing', message: e.message }
    : { id, outcome: 'error', message: reasonOf(e) };

async function removeOne(client: QfClient, brokerId: string, id: string, ctx: AdapterContext, where: string): Promise<ActionOutcome> {
  const letter = await readLetter(client, id);
  if (!letter) return { id, outcome: 'missing', message: `QueueFlow has no dead letter ${id} (for this tenant)` };
  if (letter.replay_job_id)
    return { id, outcome: 'missing', message: `dead letter ${id} was replayed already (as job ${letter.replay_job_id})` };
  const queue = letter.queue_name ?? 'default';
  return oneAtATime(`${brokerId}\u0000${queue}`, async () => {
    const detail: EditDetail = { letter: id, moved: where };
    const taken = await ctx.leases.take(brokerId, queue, detail, (stale) => recoverQfLease(client, ctx.leases, stale, ctx.audit));
    if ('busy' in taken)
      return {
        id,
        outcome: 'error',
        message: `another console (${taken.busy.owner}) holds queue ${queue} since ${taken.busy.startedAt}, so the letter could not be marked yet: move it again in a moment (it is already on ${where})`,
      };
    const state: Steps = { wasPaused: null, keepPaused: false };
    let o: ActionOutcome;
    try {
      o = await replayCancelled(client, id, queue, taken.held, detail, state, where);
    } catch (e) {
      o = failed(id, e);
    }
    const note = await letGo(client, queue, taken.held, state);
    return note ? { ...o, message: `${o.message}; ${note}` } : o;
  });
}

async function replayCancelled(
  client: QfClient,
  id: string,
  queue: string,
  held: Parameters<typeof pauseAndReplay>[3],
  detail: EditDetail,
  state: Steps,
  where: string,
): Promise<ActionOutcome> {
  const copy = await pauseAndReplay(client, id, queue, held, detail, state);
  try {
    await client.post(`/api/v1/jobs/${encodeURIComponent(copy)}/cancel`, {});
  } catch (e) {
    state.keepPaused = !state.wasPaused;
    return {
      id,
      outcome: 'error',
      message: `it is on ${where}, and the letter was replayed here as job ${copy} (the only way QueueFlow marks a letter), but that copy could not be cancelled (${reasonOf(e)}): queue ${queue} stays paused; cancel job ${copy}, then resume it`,
    };
  }
  return {
    id,
    outcome: 'ok',
    message: `marked as moved to ${where}: replayed as job ${copy}, which was cancelled before any worker could take it (QueueFlow cannot delete a letter)`,
  };
}
