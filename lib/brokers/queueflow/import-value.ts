import 'server-only';
import type { CallsDecl } from '@/lib/brokers/schema';
import type { ValueJob } from '@/lib/brokers/types';
import type { QfClient } from './client';
import { earlierJob, serverNow } from './enqueue';
import { parseWire, ZCreated } from './wire';

// A job converted from another call model (a move through a call mapping) created here with
// `POST /api/v1/jobs` and the move's Idempotency-Key: QueueFlow answers a key it has seen with
// the first job, so a move sent twice (a console crash between its steps, two consoles) leaves
// one job.

/** A pending job's move back (./pending-out.ts). */
const QF_WAITING = {
  does: "A pending job (due now; a job scheduled for later is refused, as the target's import enqueues ready now) is read as its task, payload, queue and priority; to take it, its queue is paused for a moment under the console's hold, the job read again and cancelled only if it is still pending and no worker leased it meanwhile (QueueFlow keeps it as cancelled), then the queue is resumed; a job a worker already leased is refused and runs here.",
};

export const QUEUEFLOW_CALLS: CallsDecl = {
  model: 'named-payload',
  export: {
    does: "The letter's job (task name, queue, payload, priority) is read and converted through the call mapping whose target task is its name; once the task is on the other broker under the job's id, the letter is replayed with its queue paused and QueueFlow's copy cancelled before any worker can take it (QueueFlow cannot delete a letter), so it reads as replayed, its copy cancelled.",
  },
  leaves: 'replay',
  import: {
    does: "QueueFlow creates one pending job (POST /api/v1/jobs) with the mapped task name, queue and payload, the letter's priority and the mapping's retry settings, under an Idempotency-Key derived from the letter's id.",
  },
  waiting: QF_WAITING,
  keyed: 'QueueFlow returns the first job for an Idempotency-Key it has seen (tenant-scoped), so sending a move again creates nothing',
};

/** The request QueueFlow gets for `job` (the preview shows the same). */
export function valueCreate(job: ValueJob): { body: Record<string, unknown>; headers: Record<string, string> } {
  const config: Record<string, unknown> = { queue: job.queue };
  if (job.priority !== null) config.priority = job.priority;
  if (job.retry.maxRetries !== undefined) config.max_retries = job.retry.maxRetries;
  if (job.retry.backoff !== undefined) config.retry_backoff = job.retry.backoff;
  if (job.retry.delaySecs !== undefined) config.retry_delay_secs = job.retry.delaySecs;
  const body = { task_name: job.task, payload: job.payload, config, ...(job.runAt ? { run_at: job.runAt } : {}) };
  return { body, headers: { 'idempotency-key': job.key } };
}

export async function importValueQf(
  client: QfClient,
  job: ValueJob,
): Promise<{ outcome: 'ok' | 'already'; message: string; taskId: string }> {
  const { body, headers } = valueCreate(job);
  const before = await serverNow(client).catch(() => null);
  const created = parseWire(ZCreated, await client.post('/api/v1/jobs', body, headers), 'a new job');
  const earlier = await earlierJob(client, created.job_id, before);
  if (earlier)
    return {
      outcome: 'already',
      message: `already there as job ${earlier.id} (Idempotency-Key "${job.key}", created ${earlier.created_at}); nothing created`,
      taskId: earlier.id,
    };
  return { outcome: 'ok', message: `as job ${created.job_id}`, taskId: created.job_id };
}
