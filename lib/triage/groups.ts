import type { DeadGroup, DeadGroups } from '@/lib/brokers/dto';
import { inRange, type TimeRange } from '@/lib/brokers/time-range';
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

  /** `range`: letters that died outside it are left out (a letter with no died time too), for
   *  adapters that read every letter and compare in memory. An adapter that pre-groups letters
   *  (`count`) must push the range into its read: only the entry's newest time is seen here. */
  constructor(private readonly range: TimeRange = {}) {}

  /** Adds the letter to its group; false when it died outside the range (not grouped). */
  add(l: GroupedLetter): boolean {
    if (!inRange(l.diedAtMs, this.range)) return false;
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
    return true;
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

  /** The groups and their scope: every letter unless `leftOut` (the adapter's words) says what
   *  the read left out. `grouped` is always the sum of the groups' counts. */
  answer(leftOut?: string | null): DeadGroups {
    const groups = this.result();
    const grouped = groups.reduce((n, g) => n + g.count, 0);
    return { groups, scope: leftOut ? { grouped, complete: false, note: leftOut } : { grouped, complete: true } };
  }
}

/** Past a full window, a store counts its letters up to this many windows for the scope's words
 *  ("more than 100,000" beyond that): the count stays bounded like the window itself. */
export const SCOPE_COUNT_WINDOWS = 10;

const num = (x: number) => x.toLocaleString('en-US');

/** How many letters there are in all, as far as the store can say cheaply. */
export type LetterTotal = { n: number; how: 'exact' | 'more than' | 'about' };

/**
 * The words for groups over the newest `window` letters when there are more: "Grouped the newest
 * 10,000 of 12,345 dead letters (the searchWindow option): the 2,345 older ones are in no group's
 * count." `why` names what bounds the window; without a usable total the words say "there are more".
 */
export function newestWindowNote(w: { window: number; total?: LetterTotal; why?: string }): string {
  const t = w.total && w.total.n > w.window ? w.total : undefined;
  const head = `Grouped the newest ${num(w.window)}`;
  const why = w.why ? ` (${w.why})` : '';
  if (!t) return `${head} dead letters${why}; there are more, and the older ones are in no group's count.`;
  const older =
    t.how !== 'exact' ? 'the older ones are' : t.n - w.window === 1 ? 'the 1 older one is' : `the ${num(t.n - w.window)} older ones are`;
  const of = t.how === 'exact' ? num(t.n) : `${t.how} ${num(t.n)}`;
  return `${head} of ${of} dead letters${why}: ${older} in no group's count.`;
}
