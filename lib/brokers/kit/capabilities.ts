// What an adapter offers, assembled from its declared states: everything on, then what the
// system (or this broker's setup) cannot do, each with why. Client-safe: no server imports.
import { ConsoleError } from '@/lib/brokers/errors';
import { allCapabilities, type Cap, type Capabilities, type Capability, type StateDecl } from '@/lib/brokers/model';

/** Some capabilities set to a value (`off` builds one, `listing` one per state). */
export type CapPatch = Partial<Record<Capability, Cap>>;

/**
 * Every capability on and every declared state listed (`allCapabilities`), then each patch
 * in order, a later one winning; a falsy patch (`cond && off(...)`) changes nothing. Each
 * capability is a copy, so a caller may change the result without touching a shared constant.
 */
export function capabilitiesOf(states: Pick<StateDecl, 'key'>[], ...patches: Array<CapPatch | false | null | undefined>): Capabilities {
  const caps = allCapabilities(states);
  for (const patch of patches) {
    if (!patch) continue;
    for (const [k, cap] of Object.entries(patch)) if (cap) caps[k as Capability] = { ...cap };
  }
  return caps;
}

/** `keys` off for one reason. */
export const off = (keys: readonly Capability[], why: string): CapPatch => Object.fromEntries(keys.map((k) => [k, { on: false, why }]));

/** `keys` on (a setup that gives back what an earlier patch took). */
export const on = (keys: readonly Capability[]): CapPatch => Object.fromEntries(keys.map((k) => [k, { on: true }]));

/** Throws `refuse(cap)` unless `caps[key]` is on: a write checks its capability again itself. */
export function requireOn(caps: Capabilities, key: Capability, refuse: (cap: Cap) => ConsoleError): void {
  const cap = caps[key] ?? { on: false };
  if (!cap.on) throw refuse(cap);
}

/** A contract method this system cannot answer: every call fails `Unsupported` with why. */
export const unsupported =
  (why: string) =>
  async (..._args: unknown[]): Promise<never> => {
    throw new ConsoleError('Unsupported', why);
  };
