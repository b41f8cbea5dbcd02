// The roll-up of a campaign's items and its one line ("1,964 succeeded · 31 died again, same
// error · 5 waiting"). Pure and client-safe: the store counts, this adds and words.
import type { ItemFate, Rollup } from './schema';

/** One group of the store's count: a fate, and for dead ones whether the error is the same. */
export interface FateCount {
  fate: ItemFate;
  same: boolean | null;
  n: number;
}

export function rollupOf(counts: readonly FateCount[]): Rollup {
  const r: Rollup = {
    total: 0,
    succeeded: 0,
    deadSame: 0,
    deadNew: 0,
    deadUnlinked: 0,
    waiting: 0,
    running: 0,
    gone: 0,
    unknown: 0,
    pending: 0,
  };
  for (const c of counts) {
    r.total += c.n;
    if (c.fate === 'dead') {
      if (c.same === true) r.deadSame += c.n;
      else if (c.same === false) r.deadNew += c.n;
      else r.deadUnlinked += c.n;
    } else r[c.fate] += c.n;
  }
  return r;
}

/** Whether a dead-again task died of the same error: null when either fingerprint is unknown. */
export function sameError(before: string | null, now: string | null): boolean | null {
  return before === null || now === null ? null : before === now;
}

const n = (v: number) => v.toLocaleString('en-US');

/**
 * The roll-up in words, the largest news first; parts with no task are left out. `firstRun`:
 * the tasks had not run before (waiting tasks moved), so nothing died before and a dead one
 * "failed" (same or new error has no meaning for it).
 */
export function rollupLine(r: Rollup, firstRun = false): string {
  const dead: Array<[number, string]> = firstRun
    ? [[deadAgain(r), 'failed']]
    : [
        [r.deadSame, 'died again, same error'],
        [r.deadNew, 'died again, new error'],
        [r.deadUnlinked, 'died again (error not comparable)'],
      ];
  const parts: Array<[number, string]> = [
    [r.succeeded, 'succeeded'],
    ...dead,
    [r.running, 'running'],
    [r.waiting, 'waiting'],
    [r.gone, 'gone (result expired, not counted as success)'],
    [r.unknown, 'unknown'],
    [r.pending, 'not looked at yet'],
  ];
  const said = parts.filter(([v]) => v > 0).map(([v, w]) => `${n(v)} ${w}`);
  return said.length ? said.join(' · ') : 'no tasks';
}

/** Dead again, in either split: what "replay the ones that died again" takes. */
export const deadAgain = (r: Rollup): number => r.deadSame + r.deadNew + r.deadUnlinked;
