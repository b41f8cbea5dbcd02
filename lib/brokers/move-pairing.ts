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
  /** The adapter has `exportCall` (or `exportValue`) / `importCall`. */
  exports: boolean;
  imports: boolean;
  /** The adapter has `importValue` (jobs of a named payload, through a call mapping). */
  importsValue?: boolean;
  readOnly: boolean;
  /** Null with `down` when the broker could not be asked. */
  caps: Capabilities | null;
  down?: string;
}

export const ZPairing = z.discriminatedUnion('on', [
  /** `mapped`: the brokers' call models differ, so each letter goes through its task's call mapping. */
  /** `back`: named-payload letters into positional calls (the mapping read the other way). */
  z.strictObject({ on: z.literal(true), does: z.string(), mapped: z.boolean().optional(), back: z.boolean().optional() }),
  z.strictObject({ on: z.literal(false), why: z.string() }),
]);
export type Pairing = z.infer<typeof ZPairing>;

/** One other broker as the move's target picker shows it (GET /move-targets). One zod
 *  definition, the type inferred (docs/architecture.md). */
export const ZMoveTargetView = z.strictObject({ id: z.string(), name: z.string(), pairing: ZPairing }).meta({ id: 'MoveTarget' });
export type MoveTargetView = z.infer<typeof ZMoveTargetView>;

const off = (why: string): Pairing => ({ on: false, why });
const VERB = { browseDead: 'read', discard: 'remove', replay: 'replay (and so remove)', pause: 'pause the queues of' } as const;

/** The capability that lets a letter leave this broker when it moves away, as the adapter
 *  declares it leaves (`model.calls.leaves`): `discard` where it is deleted, `replay` where the
 *  system cannot delete one (QueueFlow: replayed, its copy cancelled; `pause` is checked by the
 *  pairing). The move's gate checks it, for one letter and for a bulk job. */
export const leaveCapability = (model: BrokerModel | null | undefined): 'replay' | 'discard' =>
  model?.calls?.leaves === 'replay' ? 'replay' : 'discard';

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
  if ('why' in b.import) return off(`${to.name} cannot take calls from another broker: ${b.import.why}`);
  const mapped = a.model !== b.model;
  if (mapped) {
    const why = acrossModels(from, to, a.model, b.model);
    if (why) return off(why);
  }
  if (!mapped && !to.imports) return off(`${to.name}'s adapter does not enqueue calls from other brokers`);
  if (from.readOnly) return off(`${from.name} is configured read-only, so its letters cannot be removed there`);
  if (to.readOnly) return off(`${to.name} is configured read-only, so nothing can be enqueued there`);
  if (!from.caps) return off(`${from.name} cannot be reached: ${from.down ?? 'no answer'}`);
  if (!to.caps) return off(`${to.name} cannot be reached: ${to.down ?? 'no answer'}`);
  // A system that cannot delete a letter lets it go by its replay, the copy cancelled while its queue is paused.
  const leave = a.leaves === 'replay' ? (['browseDead', 'replay', 'pause'] as const) : (['browseDead', 'discard'] as const);
  for (const cap of leave)
    if (!from.caps[cap].on) return off(`${from.name} cannot ${VERB[cap]} its letters: ${from.caps[cap].why ?? 'off'}`);
  if (!to.caps.enqueue.on) return off(`${to.name} cannot take new tasks: ${to.caps.enqueue.why ?? 'off'}`);
  const back = from.model?.task?.payload.shape === 'value';
  const through = !mapped
    ? ''
    : back
      ? " Each job goes through the call mapping whose target task is its name (the mapping's payload keys back to positional arguments, every other key a kwarg); a job with no mapping is refused, nothing moved."
      : ' Each task goes through the call mapping of its name (positional arguments to payload keys, kwargs by name, values JSON cannot hold encoded or refused); a task with no mapping is refused, nothing moved.';
  return mapped
    ? { on: true, does: `${a.export.does} ${b.import.does}${through}`, mapped, ...(back ? { back } : {}) }
    : { on: true, does: `${a.export.does} ${b.import.does}` };
}

/** Why letters of one call model cannot go to a broker of another, or null: positional calls
 *  go to a named-payload system through a call mapping (lib/brokers/mapping/), and back. */
function acrossModels(from: MoveSide, to: MoveSide, a: string, b: string): string | null {
  const differ = `${from.name}'s tasks are ${a} calls, ${to.name}'s are ${b} calls`;
  const sa = from.model?.task?.payload.shape;
  const sb = to.model?.task?.payload.shape;
  if (sa === sb) return differ;
  if (sa === 'value') return to.imports ? null : `${differ}, and ${to.name}'s adapter does not enqueue calls from other brokers`;
  if (!to.importsValue) return `${differ}, and ${to.name}'s adapter does not create jobs converted through a call mapping`;
  return null;
}
