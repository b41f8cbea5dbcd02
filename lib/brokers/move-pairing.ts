// Which brokers a dead letter may move between (lib/brokers/move.ts), from what each adapter
// declares (`model.calls`, its capabilities) and configuration (read-only). Pure: unit-tested
// without brokers. Client-safe: no server imports.
import { z } from 'zod';
import type { BrokerModel, Capabilities } from './model';

/** One broker as the pairing sees it. */
export interface MoveSide {
  id: string;
  name: string;
  /** Null when its adapter cannot be created (a system not supported yet). */
  model: BrokerModel | null;
  /** The adapter has `exportCall` / `importCall`. */
  exports: boolean;
  imports: boolean;
  readOnly: boolean;
  /** Null with `down` when the broker could not be asked. */
  caps: Capabilities | null;
  down?: string;
}

export const ZPairing = z.discriminatedUnion('on', [
  z.strictObject({ on: z.literal(true), does: z.string() }),
  z.strictObject({ on: z.literal(false), why: z.string() }),
]);
export type Pairing = z.infer<typeof ZPairing>;

/** One other broker as the move's target picker shows it (GET /move-targets). One zod
 *  definition, the type inferred (docs/architecture.md). */
export const ZMoveTargetView = z.strictObject({ id: z.string(), name: z.string(), pairing: ZPairing }).meta({ id: 'MoveTarget' });
export type MoveTargetView = z.infer<typeof ZMoveTargetView>;

const off = (why: string): Pairing => ({ on: false, why });

/**
 * Whether letters of `from` can move to `to`, and why not. The order of the checks is the order
 * of the reasons an operator can act on: the systems first (nothing to configure), then what the
 * brokers allow right now (read-only, permissions, reachability).
 */
export function pairMove(from: MoveSide, to: MoveSide): Pairing {
  if (from.id === to.id) return off('the letters are already on this broker (replay them instead)');
  const a = from.model?.calls;
  const b = to.model?.calls;
  if (!a) return off(`${from.name}'s system declares no call model its letters could move in`);
  if ('why' in a.export) return off(`${from.name} cannot hand its letters over as calls: ${a.export.why}`);
  if (!from.exports) return off(`${from.name}'s adapter does not read its letters as calls`);
  if (!b) return off(`${to.name}'s system declares no call model it could take tasks in`);
  if (a.model !== b.model) return off(`${from.name}'s tasks are ${a.model} calls, ${to.name}'s are ${b.model} calls`);
  if ('why' in b.import) return off(`${to.name} cannot take calls from another broker: ${b.import.why}`);
  if (!to.imports) return off(`${to.name}'s adapter does not enqueue calls from other brokers`);
  if (from.readOnly) return off(`${from.name} is configured read-only, so its letters cannot be removed there`);
  if (to.readOnly) return off(`${to.name} is configured read-only, so nothing can be enqueued there`);
  if (!from.caps) return off(`${from.name} cannot be reached: ${from.down ?? 'no answer'}`);
  if (!to.caps) return off(`${to.name} cannot be reached: ${to.down ?? 'no answer'}`);
  for (const cap of ['browseDead', 'discard'] as const)
    if (!from.caps[cap].on)
      return off(`${from.name} cannot ${cap === 'discard' ? 'remove' : 'read'} its letters: ${from.caps[cap].why ?? 'off'}`);
  if (!to.caps.enqueue.on) return off(`${to.name} cannot take new tasks: ${to.caps.enqueue.why ?? 'off'}`);
  return { on: true, does: `${a.export.does} ${b.import.does}` };
}
