import 'server-only';
import { checkName, unseenWords } from '@/lib/text/suggest';
import { ConsoleError } from './errors';
import type { EnqueueRequest } from './schema';
import type { BrokerAdapter } from './types';

// An enqueue checked against what the broker has shown the console: a request without a queue
// goes where the task was seen (`taskQueues`, most-seen first), as the form's queue follows it;
// a task or queue name never seen that is a misspelling of a seen one (lib/text/suggest.ts) is
// refused as InvalidInput under its field, unless `allowUnknown`. A name unlike any seen one is
// new, not a typo (a task just deployed, a new queue): it goes through. A read that fails here
// skips its check: the enqueue itself says whether the broker answers.

export interface TaskSightings {
  /** `taskNames`: every task name seen, registered ones included. */
  names: string[];
  /** Each task's queues, most-seen first; null where the system's messages do not say. */
  seenIn: Record<string, string[]> | null;
}

export async function sightingsOf(a: BrokerAdapter): Promise<TaskSightings> {
  const [names, seenIn] = await Promise.all([a.taskNames(), a.taskQueues ? a.taskQueues() : Promise.resolve(null)]);
  return { names, seenIn };
}

const quietly = <T>(p: Promise<T>, fallback: T): Promise<T> => p.catch(() => fallback);

/** The request the adapter gets: `allowUnknown` dropped, the queue filled from where the task
 *  was seen when none is given. With `check`, misspelt names are refused (InvalidInput). */
export async function resolveEnqueue(a: BrokerAdapter, req: EnqueueRequest, check: boolean): Promise<EnqueueRequest> {
  const { allowUnknown, ...rest } = req;
  // Without the check (a preview, as the operator types; a confirmed send) only what routing needs is read.
  const checking = check && allowUnknown !== true;
  if (!checking && (rest.queue !== undefined || !a.taskQueues)) return rest;
  const seen = checking
    ? await quietly(sightingsOf(a), { names: [], seenIn: null })
    : { names: [], seenIn: await quietly(a.taskQueues!(), null) };
  const routed = rest.queue === undefined ? seen.seenIn?.[rest.task]?.[0] : undefined;
  const out = routed === undefined ? rest : { ...rest, queue: routed };
  if (!checking) return out;
  const fields: Record<string, string> = {};
  const task = checkName(rest.task, seen.names);
  if (task.seen === false && task.misspelt.length) fields.task = unseenWords('task', rest.task, task.misspelt);
  if (rest.queue !== undefined) {
    const listed = await quietly(
      a.overview().then((o) => o.queues.map((q) => q.name)),
      [],
    );
    const queues = [...listed, ...Object.values(seen.seenIn ?? {}).flat()];
    const queue = checkName(rest.queue, queues);
    if (queue.seen === false && queue.misspelt.length) fields.queue = unseenWords('queue', rest.queue, queue.misspelt);
  }
  const said = Object.values(fields);
  if (said.length) throw new ConsoleError('InvalidInput', `${said.join('; ')} (send "allowUnknown": true to enqueue it anyway)`, fields);
  return out;
}
