import type { BoundedCount, MigrationRow } from './migration-schema';

/**
 * The migration view's rows from what each side's bounded reads counted (pure; the reads are
 * in migration-read.ts). One row per source task name, beside the counts of its name on the
 * target (the mapping's `targetTask`, else the same name); then one row per name seen only on
 * the target. A side that could not be read gives null counts, never zeros.
 */

export interface SideTally {
  /** Per task name; null: that state could not be read. */
  waiting: Map<string, number> | null;
  dead: Map<string, number> | null;
  /** Dead letters no worker had a handler for, per task name; null where the system does not tell. */
  noHandler: Map<string, number> | null;
  /** Whether each read stopped at its cap (its counts are lower bounds). */
  waitingCapped: boolean;
  deadCapped: boolean;
}

export interface MappedName {
  task: string;
  targetTask: string | null;
}

const count = (m: Map<string, number> | null, name: string, capped: boolean): BoundedCount =>
  m === null ? { n: null, atLeast: false } : { n: m.get(name) ?? 0, atLeast: capped };

/** Adds one to `name` in `m`. */
export function tally(m: Map<string, number>, name: string): void {
  m.set(name, (m.get(name) ?? 0) + 1);
}

const namesOf = (t: SideTally) => [...(t.waiting?.keys() ?? []), ...(t.dead?.keys() ?? [])];

export function migrationRows(
  source: SideTally,
  target: SideTally,
  mappings: readonly MappedName[],
  moved: ReadonlyArray<{ task: string | null; outcome: string }>,
): MigrationRow[] {
  const mapTo = new Map(mappings.map((m) => [m.task, m.targetTask ?? m.task]));
  const movedBy = new Map<string, { ok: number; already: number }>();
  for (const m of moved) {
    if (m.task === null) continue;
    const c = movedBy.get(m.task) ?? { ok: 0, already: 0 };
    if (m.outcome === 'already') c.already++;
    else c.ok++;
    movedBy.set(m.task, c);
  }
  const sourceNames = [...new Set([...namesOf(source), ...mapTo.keys(), ...movedBy.keys()])].sort();
  const targetSide = (name: string): MigrationRow['target'] => ({
    waiting: count(target.waiting, name, target.waitingCapped),
    dead: count(target.dead, name, target.deadCapped),
    noHandler: target.noHandler === null ? null : count(target.noHandler, name, target.deadCapped),
  });
  const rows: MigrationRow[] = sourceNames.map((task) => {
    const targetTask = mapTo.get(task) ?? task;
    return {
      task,
      targetTask,
      mapped: mapTo.has(task),
      source: { waiting: count(source.waiting, task, source.waitingCapped), dead: count(source.dead, task, source.deadCapped) },
      target: targetSide(targetTask),
      moved: movedBy.get(task) ?? { ok: 0, already: 0 },
    };
  });
  const reached = new Set(rows.map((r) => r.targetTask));
  // Not a source name: none there (unknown where the source could not be read).
  const none = (m: Map<string, number> | null): BoundedCount => ({ n: m === null ? null : 0, atLeast: false });
  for (const name of [...new Set(namesOf(target))].sort()) {
    if (reached.has(name)) continue;
    rows.push({
      task: null,
      targetTask: name,
      mapped: false,
      source: { waiting: none(source.waiting), dead: none(source.dead) },
      target: targetSide(name),
      moved: { ok: 0, already: 0 },
    });
  }
  return rows;
}
