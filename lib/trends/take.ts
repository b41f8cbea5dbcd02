import 'server-only';
import { countOf, defaultState } from '@/lib/brokers/dto';
import { queueSamples, takeSnapshot, topQueues } from '@/lib/metrics/snapshot';
import type { SampleRow } from './store';

/**
 * One sample of every configured broker: the overview's own capped counts (the read /metrics
 * and the overview page make), each broker under the service's read timeout. A broker that
 * can't be read, or not within the metrics budget, gives no rows, so its chart shows a gap, never a 0. Depth is the count of the
 * state that plays `waiting` (else the first declared), the work a worker claims next. Queue `''`
 * holds the broker's totals.
 */
export async function takeSamples(atMs: number, maxQueues: number): Promise<SampleRow[]> {
  const snap = await takeSnapshot();
  const rows: SampleRow[] = [];
  for (const b of snap.brokers) {
    const o = b.overview;
    // A stale sample repeats a read an earlier sample kept: a gap, not the same numbers again.
    if (!o || b.stale) continue;
    const waiting = (o.model ? defaultState(o.model.states)?.key : undefined) ?? Object.keys(o.totals.counts)[0] ?? '';
    const all = queueSamples(o, snap.takenAt);
    // The busiest `maxQueues` (their known counts summed, dead letters included), as /metrics keeps.
    const queues = topQueues(all, maxQueues).kept;
    const count = (q: (typeof queues)[number], state: string) => q.counts.find((c) => c.state === state);
    // A count the broker did not finish is kept as what it is: a lower bound, flagged.
    for (const q of queues)
      rows.push({
        broker: o.id,
        queue: q.queue,
        atMs,
        depth: count(q, waiting)?.value ?? null,
        oldestSeconds: q.oldestAgeSeconds,
        dead: count(q, 'dead')?.value ?? null,
        depthCapped: !!count(q, waiting)?.capped,
        deadCapped: !!count(q, 'dead')?.capped,
      });
    let oldest: number | null = null;
    for (const q of all) if (q.oldestAgeSeconds !== null) oldest = Math.max(oldest ?? 0, q.oldestAgeSeconds);
    rows.push({
      broker: o.id,
      queue: '',
      atMs,
      depth: countOf(o.totals, waiting),
      oldestSeconds: oldest,
      dead: o.totals.dead,
      depthCapped: !!o.totalsCapped?.[waiting],
      deadCapped: !!o.totalsCapped?.dead,
    });
  }
  return rows;
}
