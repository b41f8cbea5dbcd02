import 'server-only';
import { ConsoleError } from './errors';
import type { DeadFilter } from './schema';
import { hasRange, rangeProblem } from './time-range';
import type { BrokerAdapter } from './types';

/** Why this system cannot filter its dead letters by when they died, when its adapter says none. */
export const NO_DEAD_RANGE_WHY = "this system's adapter does not filter dead letters by when they died";

/**
 * A dead-letter read with a time range, checked before anything is read: an empty range names
 * `until`; a broker whose `deadRange` capability is off refuses with the adapter's words, never
 * answering the letters of every time as if they matched.
 */
export async function checkDeadRange(a: BrokerAdapter, q: DeadFilter): Promise<void> {
  if (!hasRange(q)) return;
  const bad = rangeProblem(q);
  if (bad) throw new ConsoleError('InvalidInput', `${bad.field}: ${bad.message}`, { [bad.field]: bad.message });
  // (An adapter without a model is a test double with every capability.)
  if (!a.model) return;
  const cap = (await a.capabilities()).deadRange;
  if (!cap?.on) throw new ConsoleError('Unsupported', `time range: ${cap?.why ?? NO_DEAD_RANGE_WHY}`);
}
