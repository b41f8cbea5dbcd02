import 'server-only';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import type { AdapterContext, HeldLease } from '@/lib/brokers/adapter-context';
import type { QfClient } from './client';
import { readLetter } from './dead';
import { editedCreate, editKey } from './edit-payload';
import { isPaused, recoverQfLease, type EditDetail } from './edit-recover';
import { readJob } from './jobs';
import { createReplayLinks, replayedWhy } from './replayed';
import { QUEUEFLOW_MODEL } from './model';
import { parseWire, ZCreated } from './wire';

export { editedCreate } from './edit-payload';

// Replay with edits on QueueFlow. Its replay (`POST /dlq/{id}/replay`) copies the original job and
// takes no changes, and it is the only way to mark a letter replayed. So: the letter's queue is
// paused (its claim skips paused queues), the letter replayed (once, in QueueFlow's transaction),
// the edited job created (Idempotency-Key per letter), the unedited copy cancelled while no
// worker can lease it, and the queue resumed. The pause is held with a lease in the console's
// state store (lib/leases): one edit-replay per queue across every console process sharing that
// store, and a console that dies mid-way leaves a lease that another one recovers
// (edit-recover.ts): it finishes the edit and resumes the queue if the console paused it.

async function letterAndJob(client: QfClient, id: string) {
  const letter = await readLetter(client, id);
  if (!letter) throw new ConsoleError('NotFound', `QueueFlow has no dead letter ${id} (for this tenant)`);
  // Refused in the words the letter's declared `unavailable.replay` has (dead.ts); NotFound as
  // everywhere a letter is no longer there to replay (the shared contract's second edit-replay).
  if (letter.replay_job_id) {
    const job =
      (await createReplayLinks(client)
        .jobOf(letter)
        .catch(() => null)) ?? letter.replay_job_id;
    throw new ConsoleError('NotFound', `dead letter ${id}: ${replayedWhy(job)}`);
  }
  const job = await readJob(client, letter.job_id);
  if (!job) throw new ConsoleError('NotFound', `QueueFlow no longer has the job of dead letter ${id} (its retention removed it)`);
  return { letter, job };
}

export async function previewEditedQf(client: QfClient, brokerId: string, id: string, edit: ReplayEditInput): Promise<EditPreview> {
  const { job } = await letterAndJob(client, id);
  const { before, after } = editedCreate(job, edit);
  const text = (x: unknown) => JSON.stringify(x, null, 2);
  return {
    brokerId,
    id,
    before: text(before),
    after: text(after),
    newId: '(QueueFlow assigns the new job id)',
    sameId: false,
    does: QUEUEFLOW_MODEL.actions.replayEdited!.does,
  };
}

const post = (client: QfClient, route: string, body: unknown, headers?: Record<string, string>) => client.post(route, body, headers);
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

// One edited replay at a time per queue in this process, before the state store's lease (which
// also covers other processes): a second one waits here instead of polling the store.
// On globalThis, because Next bundles route handlers and server actions as separate module instances.
const LOCKS = Symbol.for('potatoq.console.queueflowEditLocks');
type Global = typeof globalThis & { [LOCKS]?: Map<string, Promise<void>> };

export async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const locks = ((globalThis as Global)[LOCKS] ??= new Map());
  const before = locks.get(key) ?? Promise.resolve();
  const run = before.then(fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  locks.set(key, tail);
  try {
    return await run;
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}

export async function replayEditedQf(
  client: QfClient,
  brokerId: string,
  id: string,
  edit: ReplayEditInput,
  ctx: AdapterContext,
): Promise<EditReplayResult> {
  const first = await letterAndJob(client, id);
  return oneAtATime(`${brokerId}\u0000${first.job.queue_name}`, () => replayEditedHeld(client, brokerId, id, edit, ctx));
}

type Done = (outcome: ActionOutcome, newId?: string) => EditReplayResult;

async function replayEditedHeld(
  client: QfClient,
  brokerId: string,
  id: string,
  edit: ReplayEditInput,
  ctx: AdapterContext,
): Promise<EditReplayResult> {
  const preview = await previewEditedQf(client, brokerId, id, edit); // bad edits and gone letters fail here
  const { job } = await letterAndJob(client, id);
  const { after } = editedCreate(job, edit);
  const queue = job.queue_name;
  const done: Done = (outcome, newId = preview.newId) => ({ ...preview, newId, outcome });
  const detail: EditDetail = { letter: id, create: after };
  const taken = await ctx.leases.take(brokerId, queue, detail, (stale) => recoverQfLease(client, ctx.leases, stale, ctx.audit));
  if ('busy' in taken) {
    const b = taken.busy;
    return done({
      id,
      outcome: 'conflict',
      message: `nothing was changed: another console (${b.owner}) has been replaying a letter of queue ${queue} with edits since ${b.startedAt} and holds the queue; try again in a moment`,
    });
  }
  const held = taken.held;
  const state: Steps = { wasPaused: null, keepPaused: false };
  let result: EditReplayResult | undefined;
  let failure: unknown = null;
  try {
    result = await steps(client, id, queue, after, held, detail, state, done);
  } catch (e) {
    failure = e;
  }
  const note = await letGo(client, queue, held, state);
  if (failure) throw failure;
  const r = result!;
  return note ? { ...r, outcome: { ...r.outcome, message: `${r.outcome.message}; ${note}` } } : r;
}

export interface Steps {
  /** Read once the lease is held (null: not read yet, nothing was done). */
  wasPaused: boolean | null;
  /** The unedited copy could not be cancelled: the queue stays paused on purpose. */
  keepPaused: boolean;
}

async function steps(
  client: QfClient,
  id: string,
  queue: string,
  after: ReturnType<typeof editedCreate>['after'],
  held: HeldLease,
  detail: EditDetail,
  state: Steps,
  done: Done,
): Promise<EditReplayResult> {
  const copy = await pauseAndReplay(client, id, queue, held, detail, state);
  let edited: string;
  try {
    edited = parseWire(ZCreated, await post(client, '/api/v1/jobs', after, { 'idempotency-key': editKey(id) }), 'a new job').job_id;
  } catch (e) {
    // The letter is replayed (as it was): that copy stays and runs, so nothing is lost.
    const message = `the edited job could not be created (${why(e)}); the letter was replayed unedited as job ${copy}`;
    return done({ id, outcome: 'error', message, taskId: copy }, copy);
  }
  await held.mark({ detail: { ...detail, copy, edited } });
  try {
    await post(client, `/api/v1/jobs/${encodeURIComponent(copy)}/cancel`, {});
  } catch (e) {
    // Both jobs exist: the queue stays paused so the unedited copy can't run as well.
    state.keepPaused = !state.wasPaused;
    const message = `created the edited job ${edited}, but could not cancel the unedited copy ${copy} (${why(e)}): queue ${queue} stays paused; cancel job ${copy}, then resume it`;
    return done({ id, outcome: 'error', message, taskId: edited }, edited);
  }
  const note = state.wasPaused ? ` (queue ${queue} was paused before and stays paused)` : '';
  const message = `replayed as job ${edited} with your edits; QueueFlow's unedited copy ${copy} was cancelled before any worker could take it${note}`;
  return done({ id, outcome: 'ok', message, taskId: edited }, edited);
}

/** Pauses `queue` (recorded first, unless it was paused already) and replays letter `id` under
 *  `held`: QueueFlow's copy of the letter's job, pending in the paused queue, recorded in the
 *  hold before anything else happens (a recovery finishes from there). A letter replayed
 *  meanwhile is NotFound. */
export async function pauseAndReplay(
  client: QfClient,
  id: string,
  queue: string,
  held: HeldLease,
  detail: EditDetail,
  state: Steps,
): Promise<string> {
  const q = encodeURIComponent(queue);
  state.wasPaused = await isPaused(client, queue);
  if (!state.wasPaused) {
    // Recorded before the pause: a console dying right after it leaves a lease that says so.
    await held.mark({ pausedByConsole: true });
    await post(client, `/api/v1/queues/${q}/pause`, {});
  }
  let copy: string;
  try {
    copy = parseWire(ZCreated, await post(client, `/api/v1/dlq/${id}/replay`, {}), 'a replay').job_id;
  } catch (e) {
    if (isConsoleError(e) && (e.code === 'Conflict' || e.code === 'NotFound'))
      throw new ConsoleError('NotFound', `dead letter ${id}: ${e.message}`);
    throw e;
  }
  await held.mark({ detail: { ...detail, copy } });
  return copy;
}

/**
 * Resumes the queue if the console paused it and gives the lease up. A queue kept paused on
 * purpose gives the lease up too (nothing for a recovery to undo: the outcome says what to do).
 * A resume that fails (QueueFlow gone) keeps the lease, so a recovery resumes the queue once
 * QueueFlow answers; the returned note says so.
 */
export async function letGo(client: QfClient, queue: string, held: HeldLease, state: Steps): Promise<string | null> {
  if (held.lost) return (held.abandon(), null);
  if (state.wasPaused !== false || state.keepPaused) return release(held);
  try {
    await post(client, `/api/v1/queues/${encodeURIComponent(queue)}/resume`, {});
  } catch (e) {
    held.abandon();
    return `queue ${queue} could not be resumed (${why(e)}): the console resumes it once QueueFlow answers (its hold runs out at ${new Date(held.lease.deadlineMs).toISOString()})`;
  }
  return release(held);
}

/** The work is done whatever the state store says: a lease that could not be deleted runs out
 *  and its recovery finds nothing to do (the queue resumed, the copy cancelled). */
async function release(held: HeldLease): Promise<string | null> {
  try {
    await held.release();
    return null;
  } catch (e) {
    held.abandon();
    console.error(JSON.stringify({ event: 'console.lease-error', queue: held.lease.queue, message: why(e) }));
    return `the console's hold on queue ${held.lease.queue} could not be removed from its state store (${why(e)}); it runs out by itself`;
  }
}
