import 'server-only';
import { isConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome, ActionResult, QueuePauseResult } from '@/lib/brokers/schema';
import { actionResult, reasonOf } from '@/lib/brokers/kit/results';
import type { QfClient } from './client';
import { readLetter } from './dead';
import { readJob } from './jobs';
import { mapLimit } from './pages';
import { replayedWhy, type ReplayLinks } from './replayed';
import { parseWire, ZCancelled, ZCreated, ZPaused } from './wire';

/** Calls in flight at once for one action over many ids (QueueFlow has one POST per id). */
const PARALLEL = 4;

/** "…already replayed as job <id>" in QueueFlow's 409: the earlier replay's job. */
export function replayedAs(message: string): string | null {
  return /already replayed as job ([0-9A-Za-z-]+)/.exec(message)?.[1] ?? null;
}

/** One letter, one `POST /api/v1/dlq/{id}/replay`: QueueFlow makes the new job and marks the
 *  letter in one transaction, so two consoles replaying it at once give one job and one 409. */
export async function replayOne(client: QfClient, id: string, links?: ReplayLinks): Promise<ActionOutcome> {
  if (!/^\d{1,18}$/.test(id))
    return { id, outcome: 'missing', message: `QueueFlow dead-letter ids are whole numbers; there is no letter "${id}"` };
  try {
    const { job_id } = parseWire(ZCreated, await client.post(`/api/v1/dlq/${id}/replay`, {}), 'a replay');
    return { id, outcome: 'ok', message: `replayed as job ${job_id}`, taskId: job_id };
  } catch (e) {
    if (!isConsoleError(e)) return { id, outcome: 'error', message: reasonOf(e) };
    switch (e.code) {
      case 'Conflict': {
        // Said as the letter's declared `unavailable.replay` says it (dead.ts), naming the job
        // the replay runs as: the edited one after an edit-replay, not QueueFlow's cancelled copy.
        // Two replays at once: the loser's 409 may not name the job yet; the letter does.
        const letter = await readLetter(client, id).catch(() => null);
        const linked = letter && links ? await links.jobOf(letter).catch(() => null) : null;
        const job = linked ?? letter?.replay_job_id ?? replayedAs(e.message);
        return job ? { id, outcome: 'already', message: replayedWhy(job), taskId: job } : { id, outcome: 'already', message: e.message };
      }
      case 'NotFound':
        // The letter, or its original job (QueueFlow's retention), is gone.
        return { id, outcome: 'missing', message: e.message };
      case 'BrokerTimeout':
        return { id, outcome: 'error', message: `${e.message}; the replay may have happened: look at the letter before trying again` };
      default:
        return { id, outcome: 'error', message: e.message };
    }
  }
}

export async function replayDead(client: QfClient, brokerId: string, ids: string[], links?: ReplayLinks): Promise<ActionResult> {
  const unique = [...new Set(ids)];
  return actionResult('replay', brokerId, unique, await mapLimit(unique, PARALLEL, (id) => replayOne(client, id, links)));
}

/**
 * Cancels a waiting job. QueueFlow's cancel also stops running jobs (cooperatively), which the
 * console never does to work a worker owns: the job is read first and a running one refused.
 * A worker may still lease it between that read and the cancel (QueueFlow has no conditional
 * cancel by id); it is then cancelled while running and its handler stops only if it checks.
 */
export async function cancelOne(client: QfClient, id: string): Promise<ActionOutcome> {
  try {
    const job = await readJob(client, id);
    if (!job) return { id, outcome: 'missing', message: `QueueFlow has no job ${id} (for this tenant)` };
    if (job.status === 'running')
      return { id, outcome: 'running', message: 'running: its worker owns it; the console does not cancel running jobs' };
    if (job.status !== 'pending' && job.status !== 'retrying')
      return { id, outcome: 'missing', message: `the job is already ${job.status}` };
    await client.post(`/api/v1/jobs/${encodeURIComponent(id)}/cancel`, {});
    return { id, outcome: 'ok', message: 'cancelled' };
  } catch (e) {
    if (isConsoleError(e) && e.code === 'Conflict') return { id, outcome: 'missing', message: e.message };
    if (isConsoleError(e) && e.code === 'NotFound') return { id, outcome: 'missing', message: e.message };
    return { id, outcome: 'error', message: reasonOf(e) };
  }
}

export async function cancelJobs(client: QfClient, brokerId: string, ids: string[]): Promise<ActionResult> {
  const unique = [...new Set(ids)];
  return actionResult('revoke', brokerId, unique, await mapLimit(unique, PARALLEL, (id) => cancelOne(client, id)));
}

/** `POST /api/v1/queues/{queue}/pause` or `/resume`: idempotent, per tenant. */
export async function setPaused(client: QfClient, brokerId: string, queue: string, paused: boolean): Promise<QueuePauseResult> {
  const r = parseWire(
    ZPaused,
    await client.post(`/api/v1/queues/${encodeURIComponent(queue)}/${paused ? 'pause' : 'resume'}`, {}),
    'a pause',
  );
  return { brokerId, queue: r.queue, paused: r.paused, pending: r.pending ?? null, running: r.running ?? null };
}

/** QueueFlow's largest bulk cancel (`--max-batch`, 1000 by default); a smaller server limit is a 400. */
const CANCEL_BATCH = 1000;

/** Cancels every pending and retrying job of a queue with QueueFlow's bulk cancel, whose status
 *  filter runs in the server's UPDATE: a running job is never touched. */
export async function cancelQueue(client: QfClient, queue: string): Promise<number> {
  let total = 0;
  for (const status of ['pending', 'retrying']) {
    for (let round = 0; round < 10_000; round++) {
      const r = parseWire(ZCancelled, await client.post('/api/v1/jobs/cancel', { queue, status, limit: CANCEL_BATCH }), 'a bulk cancel');
      total += r.cancelled;
      if (r.cancelled < CANCEL_BATCH) break;
    }
  }
  return total;
}
