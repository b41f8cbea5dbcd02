import { RANGE_UNITS } from '@/lib/brokers/time-range';
import type { AlertReading } from './evaluate';

// When a target fires: breached for its whole `for` (as the Prometheus rule waits), from the
// readings the background evaluator takes. Unknown readings change nothing either way.

/** `30s`, `5m`, `1h` in milliseconds (the units the lists' time ranges take). */
export function durationMs(d: string): number {
  const unit = d.at(-1) as keyof typeof RANGE_UNITS;
  return Number(d.slice(0, -1)) * (RANGE_UNITS[unit] ?? RANGE_UNITS.s);
}

export interface FiringStep {
  /** When the current breach began; undefined when not breached. */
  since: number | undefined;
  /** true: firing, false: not, null: unknown (keep what was). */
  firing: boolean | null;
}

export function stepFiring(prevSince: number | undefined, r: AlertReading, now: number): FiringStep {
  if (r.value === null) return { since: prevSince, firing: null };
  if (!r.breached) return { since: undefined, firing: false };
  const since = prevSince ?? now;
  return { since, firing: now - since >= durationMs(r.target.for) };
}
