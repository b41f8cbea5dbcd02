// Pieces every overview assembles the same way. Client-safe: no server imports.
import type { Counted, QueueStats, WorkerInfo } from '@/lib/brokers/dto';

/** A sum that is unknown (null) as soon as one of its parts is: unknown is not zero. */
export function knownSum(parts: Iterable<number | null | undefined>): number | null {
  let total = 0;
  for (const v of parts) {
    if (v === null || v === undefined) return null;
    total += v;
  }
  return total;
}

/** The broker's totals over its queues for the declared state `keys` and the dead letters:
 *  each a `knownSum`, so one queue whose count is unknown makes that total unknown. */
export function totalsOver(queues: readonly QueueStats[], keys: readonly string[]): Counted {
  return {
    counts: Object.fromEntries(keys.map((k) => [k, knownSum(queues.map((q) => q.counts[k]))])),
    dead: knownSum(queues.map((q) => q.dead)),
  };
}

/** The overview's worker line from the workers the system reports, by their status. */
export const workerTally = (workers: readonly Pick<WorkerInfo, 'status'>[]): { alive: number; stale: number } => ({
  alive: workers.filter((w) => w.status === 'alive').length,
  stale: workers.filter((w) => w.status === 'stale').length,
});
