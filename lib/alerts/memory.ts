import 'server-only';
import type { SqlRunner } from '@/lib/state/sql';
import { newAlertMemory, type AlertMemory } from './evaluate';
import type { SendState } from './store';

// What the background evaluator remembers between evaluations, in the state store every
// instance shares (`console_alert_memory`, step `alert-memory-1`): per target, when its breach
// began (so "for 5m" counts from the first breached reading of any instance, across a restart),
// the last dead-letter count read (a rate over two reads), the fingerprints seen when watching
// began; and the last transition sent (`console_alert_sends`, written by claimTransition). One
// read of each table per evaluation (at most one row per watched target), one write per target
// whose memory changed.

/** Fingerprints kept per newFingerprint target: a dead list with more groups is cut here. */
const SEEN_MAX = 1_000;

export interface EvaluatorMemory {
  since: Map<string, number | undefined>;
  sent: Map<string, SendState>;
  /** The rate and fingerprint memory evaluateTarget reads and updates. */
  facts: AlertMemory;
}

type Row = {
  target: string;
  since_ms: number | string | null;
  dead_at_ms: number | string | null;
  dead_count: number | string | null;
  seen: string | null;
};

const num = (v: number | string | null) => (v === null ? undefined : Number(v));
const key = (m: EvaluatorMemory, t: string) =>
  JSON.stringify([m.since.get(t) ?? null, m.facts.dead.get(t) ?? null, m.facts.seen.has(t) ? [...m.facts.seen.get(t)!].sort() : null]);

export function createAlertMemoryStore(db: Pick<SqlRunner, 'run' | 'all' | 'batch'>) {
  return {
    /** The memory of `targets`; rows of targets no longer watched are dropped. */
    async load(targets: readonly string[]): Promise<EvaluatorMemory & { was: Map<string, string> }> {
      const m: EvaluatorMemory = { since: new Map(), sent: new Map(), facts: newAlertMemory() };
      const watched = new Set(targets);
      const gone: string[] = [];
      for (const r of await db.all<Row>('SELECT target, since_ms, dead_at_ms, dead_count, seen FROM console_alert_memory', [])) {
        if (!watched.has(r.target)) {
          gone.push(r.target);
          continue;
        }
        m.since.set(r.target, num(r.since_ms));
        const at = num(r.dead_at_ms);
        const count = num(r.dead_count);
        if (at !== undefined && count !== undefined) m.facts.dead.set(r.target, { at, count });
        if (r.seen !== null) m.facts.seen.set(r.target, new Set(parseSeen(r.seen)));
      }
      for (const r of await db.all<{ target: string; state: string }>('SELECT target, state FROM console_alert_sends', []))
        if (watched.has(r.target) && (r.state === 'firing' || r.state === 'resolved')) m.sent.set(r.target, r.state);
      if (gone.length) await db.batch(gone.map((t) => ['DELETE FROM console_alert_memory WHERE target = ?', [t]] as const));
      return { ...m, was: new Map(targets.map((t) => [t, key(m, t)])) };
    },

    /** Writes the memory of each target that changed since `load`. */
    async save(m: EvaluatorMemory, was: ReadonlyMap<string, string>, now: number): Promise<void> {
      const steps: Array<readonly [string, unknown[]]> = [];
      for (const [t, before] of was) {
        if (key(m, t) === before) continue;
        const dead = m.facts.dead.get(t);
        const seen = m.facts.seen.get(t);
        steps.push([
          `INSERT INTO console_alert_memory (target, since_ms, dead_at_ms, dead_count, seen, updated_ms) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (target) DO UPDATE SET since_ms = excluded.since_ms, dead_at_ms = excluded.dead_at_ms,
             dead_count = excluded.dead_count, seen = excluded.seen, updated_ms = excluded.updated_ms`,
          [
            t,
            m.since.get(t) ?? null,
            dead?.at ?? null,
            dead?.count ?? null,
            seen ? JSON.stringify([...seen].slice(0, SEEN_MAX)) : null,
            now,
          ],
        ]);
      }
      if (steps.length) await db.batch(steps);
    },
  };
}
export type AlertMemoryStore = ReturnType<typeof createAlertMemoryStore>;

function parseSeen(s: string): string[] {
  try {
    const v: unknown = JSON.parse(s);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
