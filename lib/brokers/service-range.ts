import 'server-only';
import { ConsoleError } from './errors';
import { hasRange, rangeProblem, type TimeRange } from './time-range';
import type { BrokerAdapter } from './types';

/** Why a list has no time range where the adapter's answer does not say (a test double's). */
const NO_RANGE_WHY = {
  deadRange: 'dead letters by when they died',
  resultRange: 'results by when they finished',
  taskRange: 'tasks by when they were enqueued',
} as const;

/**
 * A list read with a time range, checked before anything is read: an empty range names `until`;
 * a broker whose capability for it (`deadRange`, `resultRange`,
 * `taskRange`) is off refuses with the
 * adapter's words, never answering the rows of every time as if they matched.
 */
export async function checkRange(a: BrokerAdapter, q: TimeRange, key: keyof typeof NO_RANGE_WHY): Promise<void> {
  if (!hasRange(q)) return;
  const bad = rangeProblem(q);
  if (bad) throw new ConsoleError('InvalidInput', `${bad.field}: ${bad.message}`, { [bad.field]: bad.message });
  // (An adapter without a model is a test double with every capability.)
  if (!a.model) return;
  const cap = (await a.capabilities())[key];
  if (!cap?.on)
    throw new ConsoleError('Unsupported', `time range: ${cap?.why ?? `this system's adapter does not filter ${NO_RANGE_WHY[key]}`}`);
}
