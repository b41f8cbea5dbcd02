// How many rows a list holds in all, for "50 shown of 1,241": the broker's own count of the
// state (a queue's, or the broker's total), only when nothing narrows the list. Client-safe.
import { countOf, type BrokerOverview } from '@/lib/brokers/schema';
import { formatCount } from '@/lib/text/format';

export function listTotal(
  o: BrokerOverview | undefined,
  state: string,
  f: { queue?: string; task?: string; id?: string; q?: string; group?: string; since?: string; until?: string },
): string | null {
  // A narrower filter than the broker's counts (a time range included) has no known total.
  if (!o || f.task || f.id || f.q || f.group || f.since || f.until) return null;
  if (f.queue) {
    const stats = o.queues.find((x) => x.name === f.queue);
    if (!stats) return null;
    const n = countOf(stats, state);
    return n === null ? null : formatCount(n, stats.capped?.[state]);
  }
  const n = countOf(o.totals, state);
  return n === null ? null : formatCount(n, o.totalsCapped?.[state]);
}
