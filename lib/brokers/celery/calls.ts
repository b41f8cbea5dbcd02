import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { CallsDecl } from '@/lib/brokers/schema';
import type { TaskCall } from '@/lib/brokers/types';
import type { ResultCtx } from './redis/context';
import { requireBackend } from './redis/context';
import { readRecord } from './redis/results';
import { resolveReplayQueue, type QueueRoutes } from './route';

// Celery's side of moving dead letters between brokers of its call model: a FAILURE record
// (with result_extended: name, args, kwargs, queue) read as a call, a call sent as
// `app.send_task` sends it under the call's own id.

/** The call model Celery shares with potatoq (potatoq's declaration names the same). */
export const CELERY_COMPATIBLE = 'celery-compatible';

const EXPORT = {
  does: "The failure's task name, id, args, kwargs (kombu's typed values as their Python types), queue and parent_id are read from its FAILURE record, which holds them only with result_extended = True; the record keeps no ignore_result, root_id, priority or expires, so the target's defaults apply (a potatoq worker stores the result); the record is deleted once the task is on the other broker.",
};

export const CELERY_REDIS_CALLS: CallsDecl = {
  model: CELERY_COMPATIBLE,
  export: EXPORT,
  import: {
    does: "Sends the message `app.send_task` would send for the same task, args and kwargs, under the letter's own id, ready now; nothing is sent when a message with that id is waiting or reserved here, or a result with that id is stored.",
  },
  waiting: {
    does: "A waiting message (protocol 2: task, id, args, kwargs, eta, priority from its headers and body) is removed from its queue's list in one atomic step (LREM of the exact message, with a mark that the move took it), so a worker that took it first keeps it and nothing is sent; a message a worker has reserved (running, or held until its eta) is refused.",
  },
};

export const CELERY_RABBITMQ_CALLS: CallsDecl = {
  model: CELERY_COMPATIBLE,
  export: EXPORT,
  import: {
    why: 'RabbitMQ cannot look a queued message up by its id, so a move retried after a crash could not tell that the task is already here and would run it twice',
  },
  waiting: {
    why: 'RabbitMQ hands out a queued message only by consuming from the head (basic.get), and a message taken that way goes back to the queue, where a worker may get it, if the console stops before the ack: the exact message cannot be taken in one step, so waiting tasks are not offered (dead letters are)',
  },
};

/** A FAILURE record as a call; null when there is no FAILURE with this id. */
export async function callOfFailure(ctx: ResultCtx, id: string, routes?: () => Promise<QueueRoutes>): Promise<TaskCall | null> {
  const found = await readRecord(requireBackend(ctx), ctx.resultPrefix, id);
  const r = found?.record;
  if (!r || r.status !== 'FAILURE') return null;
  if (!r.name || !r.queue)
    throw new ConsoleError('InvalidInput', 'the record has no task name or queue: the app stores them only with result_extended = True');
  const args = r.args ?? { k: 'list', items: [] };
  const kwargs = r.kwargs ?? { k: 'dict', entries: [] };
  if (args.k !== 'list' || kwargs.k !== 'dict') throw new ConsoleError('InvalidInput', 'the record has no list of args or dict of kwargs');
  // The record's queue may be a routing key (./route.ts): the call keeps the queue it leads to.
  const to = routes ? await resolveReplayQueue(r.queue, await routes()) : null;
  if (to?.kind === 'several') throw new ConsoleError('InvalidInput', to.why.replace('use edit and replay', 'replay it with edits'));
  const parent = r.value.k === 'dict' ? r.value.entries.find(([k]) => k === 'parent_id')?.[1] : undefined;
  return {
    id,
    task: r.name,
    queue: to ? to.queue : r.queue,
    args,
    kwargs,
    priority: null,
    expiresMs: null,
    // Not in the record (it was stored, so the task did not ignore its failure, but might its success).
    ignoreResult: null,
    rootId: null,
    parentId: parent?.k === 'str' && parent.v ? parent.v : null,
  };
}
