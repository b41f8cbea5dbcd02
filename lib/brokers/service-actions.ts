import 'server-only';
import { resolveEnqueue } from './enqueue-names';
import { ConsoleError } from './errors';
import { getAdapter } from './registry';
import { forgetReads } from './shared-reads';
import type { ActionResult, EnqueueRequest } from './schema';
import type { ReplayPace } from './types';
import type { ReplayEditInput } from './schema-edit';
import { forgettingMoves, leftIds } from './move-journal-forget';
import { NUL, hasNul, read, requireCapability, write } from './service-core';

// The broker service's actions (each behind its capability and read-only, ./service-core.ts
// `write`), and the previews that show what an action would write.

/** Workflow `id` deleted with its subtree where the adapter declares it; the `discard`
 *  capability (and read-only) decides as for every delete. */
export const deleteFamily = (brokerId: string, id: string): Promise<ActionResult> =>
  write(
    brokerId,
    'discard',
    'workflow delete',
    (a) => {
      if (!a.deleteFamily || !a.model.actions.deleteFamily)
        throw new ConsoleError('Unsupported', "this system's adapter does not delete a workflow with its subtree");
      return a.deleteFamily(id);
    },
    id,
  );

// Replays and discards forget the move journal's rows of the letters that left (./move-journal-forget.ts).
export const replayDead = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  forgettingMoves(brokerId, () => write(brokerId, 'replay', 'replay', (a) => a.replayDead(ids), ids), leftIds);
/** A replay of many ids in one pass where the adapter has one (`replayDeadPaced`), else one
 *  `replayDead`. No overall timeout: it runs as long as the letters take, steered by `pace`. */
export async function replayDeadPaced(brokerId: string, ids: string[], pace: ReplayPace): Promise<ActionResult> {
  if (hasNul(ids)) throw NUL();
  const a = await requireCapability(brokerId, 'replay');
  const run = () => (a.replayDeadPaced ? a.replayDeadPaced(ids, pace) : a.replayDead(ids));
  return forgettingMoves(brokerId, () => run().finally(() => forgetReads(brokerId)), leftIds);
}
/** Whether the broker's adapter replays a whole snapshot in one pass (`replayDeadPaced`). */
export const pacesReplay = (brokerId: string): boolean => typeof getAdapter(brokerId).replayDeadPaced === 'function';
/** The message a replay with edits would write (a read: nothing is written). */
export const previewReplayEdited = (brokerId: string, id: string, edit: ReplayEditInput) =>
  read(
    brokerId,
    'edit preview',
    (a) => {
      if (!a.previewReplayEdited || !a.model.actions.replayEdited)
        throw new ConsoleError('Unsupported', 'this broker cannot replay a dead letter with edits');
      return a.previewReplayEdited(id, edit);
    },
    { id, edit },
  );
/** Replays one dead letter with edited arguments, kwargs, queue or priority. */
export const replayEdited = (brokerId: string, id: string, edit: ReplayEditInput) =>
  forgettingMoves(
    brokerId,
    () =>
      write(
        brokerId,
        'replay',
        'replay with edits',
        (a) => {
          if (!a.replayEdited || !a.model.actions.replayEdited)
            throw new ConsoleError('Unsupported', 'this broker cannot replay a dead letter with edits');
          return a.replayEdited(id, edit);
        },
        { id, edit },
      ),
    (r) => (r.outcome.outcome === 'ok' ? [id] : []),
  );
export const discardDead = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  forgettingMoves(brokerId, () => write(brokerId, 'discard', 'discard', (a) => a.discardDead(ids), ids), leftIds);
export const revoke = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  write(brokerId, 'revoke', 'revoke', (a) => a.revoke(ids), ids);
/** Rebuilds dead letters of another system as this broker's tasks and replays them: the
 *  adapter's `convert`, declared by `model.actions.convert` (what such a letter is, what it does). */
export const convert = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  write(
    brokerId,
    'replay',
    'convert',
    async (a) => {
      if (!a.convert || !a.model.actions.convert)
        throw new ConsoleError('Unsupported', 'this broker cannot convert letters of another system');
      return a.convert(ids);
    },
    ids,
  );
/** Holds a queue's work back from its workers, or lets it go (the adapter's `setQueuePaused`). */
export const setQueuePaused = (brokerId: string, queue: string, paused: boolean) =>
  write(
    brokerId,
    'pause',
    paused ? 'pause' : 'resume',
    async (a) => {
      if (!a.setQueuePaused) throw new ConsoleError('Unsupported', 'this broker cannot pause a queue');
      return a.setQueuePaused(queue, paused);
    },
    queue,
  );
export const purge = (brokerId: string, queue: string) => write(brokerId, 'purge', 'purge', (a) => a.purge(queue), queue);
/** One task enqueued: without a queue, where the task was seen; a misspelt task or queue name
 *  refused unless `allowUnknown` (lib/brokers/enqueue-names.ts). */
export const enqueue = (brokerId: string, req: EnqueueRequest) =>
  write(brokerId, 'enqueue', 'enqueue', async (a) => a.enqueue(await resolveEnqueue(a, req, true)), req);
/** The message an enqueue would write, built by the broker's adapter and written nowhere: a
 *  read, so it needs no write capability (the form shows it while the operator types). Names
 *  are not refused here: the form warns about them itself. */
export const previewEnqueue = (brokerId: string, req: EnqueueRequest) =>
  read(brokerId, 'enqueue preview', async (a) => a.previewEnqueue(await resolveEnqueue(a, req, false)), req);
