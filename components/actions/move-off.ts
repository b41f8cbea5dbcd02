import type { BrokerModel, Capabilities } from '@/lib/brokers/model';

/**
 * Why this broker's dead letters cannot move away, or undefined (also while unknown): a moved
 * letter leaves as the adapter declares (`model.calls.leaves`), deleted (`discard`), or, where
 * the system cannot delete one (QueueFlow), replayed with its copy cancelled while its queue is
 * paused (`replay` and `pause`). The server checks the same (lib/brokers/move-pairing.ts).
 */
export function deadMoveOff(caps: Capabilities | undefined, model: BrokerModel | undefined): string | undefined {
  if (!caps) return undefined;
  const needs = model?.calls?.leaves === 'replay' ? (['replay', 'pause'] as const) : (['discard'] as const);
  for (const c of needs) if (!caps[c].on) return caps[c].why ?? `${c} unavailable`;
  return undefined;
}
