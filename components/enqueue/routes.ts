// Where a task goes and whether anyone runs it, from what live workers report (`WorkerInfo`:
// the queues they consume and the task names they registered) where the adapter declares that
// its system knows this (`model.actions.enqueue.routes`), else from the queues the broker has
// shown the task in (`seenIn` of task-names); and the names the broker has never shown.
import type { WorkerInfo } from '@/lib/brokers/schema';
import { checkName, closest, type NameCheck } from '@/lib/text/suggest';

export { closest };

export type TaskRoute =
  /** No live worker reports its task names: the console can't tell. */
  | { known: false }
  /** `queues`: what the live workers that registered the task consume (sorted, may be empty
   *  only when none registered it); `suggest`: registered names close to an unknown one. */
  | { known: true; registered: boolean; queues: string[]; suggest: string[]; via?: 'seen' };

const live = (w: WorkerInfo) => w.status !== 'dead';

export function routeOf(task: string, workers: WorkerInfo[]): TaskRoute {
  const reporting = workers.filter((w) => live(w) && w.registered !== null);
  if (!reporting.length || !task.trim()) return { known: false };
  const name = task.trim();
  const runners = reporting.filter((w) => w.registered!.includes(name));
  if (runners.length) return { known: true, registered: true, queues: [...new Set(runners.flatMap((w) => w.queues))].sort(), suggest: [] };
  const names = [...new Set(reporting.flatMap((w) => w.registered!))];
  return { known: true, registered: false, queues: [], suggest: closest(name, names) };
}

/** The queue the form uses: the operator's, or the route's when it still follows the task
 *  (the current queue when the route has it, else the route's first). */
export function followedQueue(route: TaskRoute, queue: string, follows: boolean): string {
  if (!follows || !route.known || !route.queues.length) return queue;
  return route.queues.includes(queue) ? queue : (route.queues[0] as string);
}

/** The workers' route where one registered the task, else the queues the broker has seen the
 *  task in (`via: 'seen'`, most-seen first), keeping the workers' word that none registered it. */
export function routeWithSightings(task: string, workers: WorkerInfo[], seenIn: Record<string, string[]> | null | undefined): TaskRoute {
  const r = routeOf(task, workers);
  const queues = seenIn?.[task.trim()];
  if ((r.known && r.registered) || !queues?.length) return r;
  return r.known ? { ...r, queues, via: 'seen' } : { known: true, registered: true, queues, suggest: [], via: 'seen' };
}

export interface NameWarnings {
  task: NameCheck;
  queue: NameCheck;
  /** Sending needs the operator's confirmation: a likely misspelt name, or a task no live worker registered. */
  hold: boolean;
}

const misspelt = (c: NameCheck) => c.seen === false && c.misspelt.length > 0;

/** The task and queue names against those the broker has shown (`names`: task names; `queues`:
 *  its queues and those tasks were seen in). A task its route knows is seen. */
export function nameWarnings(task: string, queue: string, names: string[], queues: string[], route: TaskRoute): NameWarnings {
  const t: NameCheck = route.known && (route.registered || route.via === 'seen') ? { seen: true } : checkName(task, names);
  const q: NameCheck = queue.trim() ? checkName(queue, [...queues, ...(route.known ? route.queues : [])]) : { seen: 'unknown' };
  return { task: t, queue: q, hold: misspelt(t) || misspelt(q) || (route.known && !route.registered) };
}
