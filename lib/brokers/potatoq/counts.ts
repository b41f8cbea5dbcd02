import 'server-only';
import type { CappedCount, CountKey, QueueStats, WorkerInfo } from '@/lib/brokers/schema';

// Queue counts shared by potatoq's table brokers (PostgreSQL, SQLite).

/** Adds the queues a live worker consumes (shown even when empty), sorted by name. */
export function withWorkerQueues(queues: QueueStats[], workers: WorkerInfo[]): QueueStats[] {
  const names = new Set(queues.map((q) => q.name));
  const out = [...queues];
  for (const w of workers) {
    if (w.status === 'dead') continue;
    for (const q of w.queues) {
      if (names.has(q)) continue;
      names.add(q);
      out.push({ name: q, ready: 0, scheduled: 0, running: 0, dead: 0, oldestReadyAt: null, tasks: null });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Sums per-queue counts; a total built from a capped count is itself a lower bound. */
export function totalsOf(queues: QueueStats[]) {
  const keys: CountKey[] = ['ready', 'scheduled', 'running', 'dead'];
  const totals = { ready: 0, scheduled: 0, running: 0, dead: 0 } as Record<CountKey, number>;
  const capped: Partial<Record<CountKey, CappedCount>> = {};
  for (const k of keys) {
    let est = 0;
    let anyCapped = false;
    let estKnown = true;
    for (const q of queues) {
      totals[k] += q[k] ?? 0;
      const c = q.capped?.[k];
      if (c) {
        anyCapped = true;
        if (c.estimate === null) estKnown = false;
        est += c.estimate ?? 0;
      } else est += q[k] ?? 0;
    }
    if (anyCapped) capped[k] = { atLeast: totals[k], estimate: estKnown ? est : null };
  }
  return { totals, capped: Object.keys(capped).length ? capped : undefined };
}
