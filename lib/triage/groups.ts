import type { DeadGroup } from '@/lib/brokers/dto';
import type { Fingerprint } from './fingerprint';

// Aggregates dead letters into groups by fingerprint, for any system: the adapter feeds each
// letter with its fingerprint (computed from its own error record) and gets the neutral groups.

export interface GroupedLetter {
  id: string;
  task: string;
  queue: string;
  diedAtMs: number | null;
  /** The letter's own one-line reason (the example the group shows). */
  summary: string;
  fp: Fingerprint;
  /** How many letters this entry stands for (an adapter may pre-group identical ones); 1 if absent.
   *  `diedAtMs` is then the newest of them, `oldestMs` the oldest, `id` the newest one's. */
  count?: number;
  oldestMs?: number | null;
}

interface Acc {
  fp: Fingerprint;
  count: number;
  tasks: Set<string>;
  queues: Set<string>;
  newest: number | null;
  oldest: number | null;
  example: { id: string; summary: string; at: number | null };
}

export class DeadGrouper {
  private readonly groups = new Map<string, Acc>();

  add(l: GroupedLetter): void {
    let g = this.groups.get(l.fp.key);
    if (!g)
      this.groups.set(
        l.fp.key,
        (g = {
          fp: l.fp,
          count: 0,
          tasks: new Set(),
          queues: new Set(),
          newest: null,
          oldest: null,
          example: { id: l.id, summary: l.summary, at: l.diedAtMs },
        }),
      );
    g.count += l.count ?? 1;
    g.tasks.add(l.task);
    g.queues.add(l.queue);
    const oldest = l.oldestMs === undefined ? l.diedAtMs : l.oldestMs;
    if (oldest !== null) g.oldest = g.oldest === null ? oldest : Math.min(g.oldest, oldest);
    if (l.diedAtMs !== null) {
      g.newest = g.newest === null ? l.diedAtMs : Math.max(g.newest, l.diedAtMs);
      // The example is the newest letter (ties: the first seen).
      if (g.example.at === null || l.diedAtMs > g.example.at) g.example = { id: l.id, summary: l.summary, at: l.diedAtMs };
    }
  }

  /** Largest group first; equal counts by pattern. */
  result(): DeadGroup[] {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return [...this.groups.values()]
      .map((g) => ({
        fingerprint: g.fp.key,
        pattern: g.fp.pattern,
        excType: g.fp.type,
        frame: g.fp.frame,
        example: { id: g.example.id, summary: g.example.summary },
        count: g.count,
        tasks: [...g.tasks].sort(),
        queues: [...g.queues].sort(),
        newestAt: iso(g.newest),
        oldestAt: iso(g.oldest),
      }))
      .sort((a, b) => b.count - a.count || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
  }
}
