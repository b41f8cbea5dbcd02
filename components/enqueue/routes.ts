// Where a task goes and whether anyone runs it, from what live workers report (`WorkerInfo`:
// the queues they consume and the task names they registered). Used where the adapter
// declares that its system knows this (`model.actions.enqueue.routes`).
import type { WorkerInfo } from '@/lib/brokers/schema';

export type TaskRoute =
  /** No live worker reports its task names: the console can't tell. */
  | { known: false }
  /** `queues`: what the live workers that registered the task consume (sorted, may be empty
   *  only when none registered it); `suggest`: registered names close to an unknown one. */
  | { known: true; registered: boolean; queues: string[]; suggest: string[] };

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
  if (!follows || !route.known || !route.registered || !route.queues.length) return queue;
  return route.queues.includes(queue) ? queue : (route.queues[0] as string);
}

/** Up to three names within a small edit distance (typos: `demo.ad` for `demo.add`). */
export function closest(name: string, names: string[]): string[] {
  const max = Math.max(2, Math.floor(name.length / 4));
  return names
    .map((n) => [n, distance(name, n)] as const)
    .filter(([, d]) => d <= max)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([n]) => n);
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 10) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] as number;
}
