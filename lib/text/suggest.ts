// Names an operator types (a task, a queue) against the names a broker has shown the console:
// "did you mean" suggestions, and which unseen names are likely misspellings. Client-safe, pure:
// the enqueue form warns with it and the service refuses with the same rule.

/** Up to three names within a small edit distance (typos: `demo.ad` for `demo.add`). At most six
 *  edits, so each comparison stops within a few rows (bounded work for any input). */
export function closest(name: string, names: Iterable<string>): string[] {
  const max = Math.min(6, Math.max(2, Math.floor(name.length / 4)));
  return [...new Set(names)]
    .filter((n) => n !== name)
    .map((n) => [n, distance(name, n, max)] as const)
    .filter(([, d]) => d <= max)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([n]) => n);
}

/**
 * Whether unseen `name` is a misspelling of seen `other`: one edit away (a wrong, missing or
 * extra character, or two swapped: `shop.emial`), two for names of ten characters or more, none
 * under five (`ct.a` and `ct.b` are two names). Names that differ only in digits are numbered
 * siblings (`email_v1`, `q2`), and random suffixes differ by far more.
 */
export function misspells(name: string, other: string): boolean {
  const limit = name.length >= 10 ? 2 : name.length >= 5 ? 1 : 0;
  if (!limit || name === other) return false;
  if (name.replace(/[0-9]/g, '') === other.replace(/[0-9]/g, '')) return false;
  return distance(name, other, limit) <= limit;
}

export type NameCheck =
  /** The broker has shown no such names: nothing to compare against. */
  | { seen: 'unknown' }
  | { seen: true }
  /** Never seen: `misspelt` the seen names it misspells (then sending needs a confirmation);
   *  `suggest` the closest seen names. */
  | { seen: false; misspelt: string[]; suggest: string[] };

/** Whether `name` is among the names a broker has shown (`seen`), and if not, what it is close to. */
export function checkName(name: string, seen: Iterable<string>): NameCheck {
  const all = [...new Set(seen)];
  const n = name.trim();
  if (!all.length || !n) return { seen: 'unknown' };
  if (all.includes(n)) return { seen: true };
  const suggest = closest(n, all);
  return { seen: false, suggest, misspelt: suggest.filter((s) => misspells(n, s)) };
}

/** "no task named `shop.emial` has been seen on this broker: did you mean `shop.email`?" */
export function unseenWords(kind: 'task' | 'queue', name: string, suggest: string[]): string {
  const head = `no ${kind} named \`${name.trim()}\` has been seen on this broker`;
  return suggest.length ? `${head}: did you mean ${suggest.map((s) => `\`${s}\``).join(', ')}?` : head;
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment),
 *  stopping early (returning `max + 1`) once it must exceed `max`. */
export function distance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  let prevBest = 0;
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] as number) + 1);
      cur[j] = d;
      if (d < best) best = d;
    }
    // A swap reaches back two rows: stop once both rows are past the limit.
    if (best > max && prevBest > max) return max + 1;
    before = prev;
    prev = cur;
    prevBest = best;
  }
  return prev[b.length] as number;
}
