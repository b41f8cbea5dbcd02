import 'server-only';

/** Sightings of task names in queues folded into each task's queues, most-seen first (then by
 *  name): what `BrokerAdapter.taskQueues` answers. Empty task or queue names are left out. */
export function foldSightings(rows: Iterable<{ task: string | null; queue: string | null; n?: number }>): Record<string, string[]> {
  const counts = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (!r.task || !r.queue) continue;
    let per = counts.get(r.task);
    if (!per) counts.set(r.task, (per = new Map()));
    per.set(r.queue, (per.get(r.queue) ?? 0) + (r.n ?? 1));
  }
  const out: Record<string, string[]> = {};
  for (const [task, per] of [...counts].sort((a, b) => a[0].localeCompare(b[0])))
    out[task] = [...per].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([q]) => q);
  return out;
}
