import 'server-only';
import { z } from 'zod';
import type { AuditWriter, LeaseSettings, PauseLease } from '@/lib/brokers/adapter-context';
import { isConsoleError } from '@/lib/brokers/errors';
import { isDenied, type QfClient } from './client';
import { readLetter } from './dead';
import { editKey } from './edit-payload';
import { readJob } from './jobs';
import { parseWire, ZCreated, ZQueues } from './wire';

// Recovery of an edit-replay whose console is gone (its hold's deadline passed): the work is
// finished the way the edit-replay would have, then the queue is resumed only if the console
// paused it and it is still paused. Every step is idempotent, so a recovery that dies half-way
// is recovered again: the letter replays once (QueueFlow's transaction), the edited job has its
// Idempotency-Key, cancelling a cancelled job is refused as terminal.

/** What an edit-replay records in its hold, step by step (lease detail). */
export const ZEditDetail = z.object({
  letter: z.string().optional(),
  create: z.object({ task_name: z.string(), payload: z.unknown(), config: z.record(z.string(), z.unknown()) }).optional(),
  copy: z.string().optional(),
  edited: z.string().optional(),
  /** The letter moved to another broker (move-out.ts): its copy is cancelled, nothing created. */
  moved: z.string().optional(),
  /** A pending job being taken for a move (pending-out.ts): nothing to finish here; the move's
   *  journal reads whether the take happened. */
  pending: z.string().optional(),
});
export type EditDetail = z.infer<typeof ZEditDetail>;

export interface QfRecovery {
  queue: string;
  resumed: boolean;
  /** The queue stays paused on purpose: the unedited copy could not be cancelled. */
  keptPaused: boolean;
  message: string;
}

/** Refusals that will not change on a retry (the server said no); anything else is retried later. */
const refused = (e: unknown) => isDenied(e) || (isConsoleError(e) && ['InvalidInput', 'Conflict', 'NotFound'].includes(e.code));

/** Is the queue paused (this tenant's)? */
export async function isPaused(client: QfClient, queue: string): Promise<boolean> {
  const stats = parseWire(ZQueues, await client.get('/api/v1/queues'), 'the queues');
  return stats.queues.some((x) => x.queue === queue && x.paused === true);
}

/**
 * Takes the stale hold over (null when another process did first), finishes or undoes its
 * edit-replay, resumes the queue if that is the console's to do, deletes the hold and writes an
 * audit entry. Throws when QueueFlow cannot be reached: the hold then stays (now this process's,
 * with a fresh deadline) and is recovered again after it.
 */
export async function recoverQfLease(
  client: QfClient,
  s: LeaseSettings,
  stale: PauseLease,
  audit: AuditWriter,
): Promise<QfRecovery | null> {
  const store = await s.store();
  const now = s.now();
  if (!(await store.takeOver(stale.broker, stale.queue, stale.owner, s.owner, now, now + s.ttlMs))) return null;
  const q = stale.queue;
  const d: EditDetail = ZEditDetail.safeParse(stale.detail).data ?? {};
  const steps: string[] = [];
  const ids = new Set<string>();
  let keptPaused = false;
  const copy = d.copy ?? (d.letter ? ((await readLetter(client, d.letter))?.replay_job_id ?? undefined) : undefined);
  let edited = d.edited;
  if (d.letter) ids.add(d.letter);
  if (d.pending) {
    ids.add(d.pending);
    const status = (await readJob(client, d.pending))?.status ?? 'gone';
    steps.push(`pending job ${d.pending} is ${status}; its move finishes or stops from the move journal`);
  } else if (!copy) steps.push(d.letter ? `dead letter ${d.letter} had not been replayed yet: nothing to finish` : 'nothing to finish');
  else {
    ids.add(copy);
    const status = (await readJob(client, copy))?.status ?? 'gone';
    if (status === 'pending' || status === 'retrying') {
      if (!edited && d.create && d.letter) {
        try {
          edited = parseWire(
            ZCreated,
            await client.post('/api/v1/jobs', d.create, { 'idempotency-key': editKey(d.letter) }),
            'a new job',
          ).job_id;
        } catch (e) {
          if (!refused(e)) throw e;
          steps.push(`the edited job could not be created (${(e as Error).message}): the letter runs unedited as QueueFlow's copy ${copy}`);
        }
      }
      if (edited || d.moved) {
        if (edited) ids.add(edited);
        try {
          await client.post(`/api/v1/jobs/${encodeURIComponent(copy)}/cancel`, {});
          steps.push(
            edited
              ? `finished the edit: the edited job is ${edited}; QueueFlow's unedited copy ${copy} was cancelled before any worker took it`
              : `finished the move of dead letter ${d.letter ?? '?'} to ${d.moved}: QueueFlow's copy ${copy} of it was cancelled before any worker took it`,
          );
        } catch (e) {
          if (!refused(e)) throw e;
          keptPaused = true;
          steps.push(
            `${edited ? `the edited job is ${edited}` : `the letter moved to ${d.moved}`}, but QueueFlow's unedited copy ${copy} could not be cancelled (${(e as Error).message}): queue ${q} stays paused; cancel job ${copy}, then resume it`,
          );
        }
      }
    } else {
      if (edited) ids.add(edited);
      steps.push(`QueueFlow's copy ${copy} of dead letter ${d.letter ?? '?'} is ${status}${edited ? `; the edited job is ${edited}` : ''}`);
    }
  }
  let resumed = false;
  if (!keptPaused) {
    if (!stale.pausedByConsole) steps.push(`queue ${q} was paused before the console paused it, so it stays paused`);
    else if (await isPaused(client, q)) {
      await client.post(`/api/v1/queues/${encodeURIComponent(q)}/resume`, {});
      resumed = true;
      steps.push(`queue ${q} resumed`);
    } else steps.push(`queue ${q} was no longer paused`);
  }
  await store.release(stale.broker, q, s.owner);
  const what = d.pending
    ? `the take of pending job ${d.pending} for a move`
    : d.moved
      ? `the move of dead letter ${d.letter ?? '?'} to ${d.moved}`
      : 'the edit-replay';
  const message = `recovered ${what} that console ${stale.owner} left when it stopped (queue held since ${stale.startedAt}, its hold ran out at ${new Date(stale.deadlineMs).toISOString()}): ${steps.join('; ')}`;
  await audit({
    action: 'edit-replay-recovery',
    broker: stale.broker,
    queue: q,
    ids: [...ids],
    outcome: keptPaused ? 'partial' : 'done',
    message,
    results: [...ids].map((id) => ({ id, outcome: keptPaused && id === copy ? 'error' : 'ok', message: '' })),
    details: {
      owner: stale.owner,
      startedAt: stale.startedAt,
      deadlineMs: stale.deadlineMs,
      pausedByConsole: stale.pausedByConsole,
      resumed,
      keptPaused,
    },
  }).catch((e: unknown) =>
    console.error(
      JSON.stringify({ event: 'console.audit-error', action: 'edit-replay-recovery', broker: stale.broker, queue: q, message: String(e) }),
    ),
  );
  return { queue: q, resumed, keptPaused, message };
}
