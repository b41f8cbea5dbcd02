import { stateOfRole, type StateDecl } from '@/lib/brokers/schema';

/** A worker's queue, opened on the work workers hold there: the tab of the state that plays
 *  `running` (whatever the system calls it), or the queue's default tab where none plays it. */
export function workerQueueHref(base: string, queue: string, states: readonly StateDecl[]): string {
  const running = stateOfRole(states, 'running')?.key;
  const path = `${base}/queues/${encodeURIComponent(queue)}`;
  return running ? `${path}?state=${encodeURIComponent(running)}` : path;
}
