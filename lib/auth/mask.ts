import 'server-only';
import { WRITE_ACTIONS, type BrokerOverview } from '@/lib/brokers/schema';
import { mayWrite, type Principal } from './resolve';

/** Masked copies kept per shared overview (one per distinct reason: per viewer, in practice). */
export const MASKED_COPIES = 64;

// A shared overview (lib/brokers/read-cache.ts) is one object for everyone who reads it within
// its reuse time and never changes: its masked copy depends only on the reason written into it,
// so one copy per reason serves every request of that principal until the next read replaces it.
const masked = new WeakMap<BrokerOverview, Map<string, BrokerOverview>>();

function maskWith(o: BrokerOverview, why: string): BrokerOverview {
  const capabilities = { ...o.capabilities };
  for (const k of WRITE_ACTIONS) if (capabilities[k]?.on) capabilities[k] = { on: false, why, code: 'Forbidden' };
  if (capabilities['schedules:write']?.on) capabilities['schedules:write'] = { on: false, why, code: 'Forbidden' };
  return { ...o, capabilities };
}

/**
 * The overview as this principal may use it: write capabilities a viewer (or an operator on a
 * broker that is read-only for them) cannot use are off, with the reason, so the UI disables
 * the buttons by the same flags. The gate refuses again on the server. The answer is shared
 * like its source: callers must not change it.
 */
export function overviewFor(o: BrokerOverview, p: Principal | null): BrokerOverview {
  if (p && mayWrite(p, o.id)) return o;
  const why = !p ? 'sign in first' : p.role === 'viewer' ? `${p.user} is a viewer` : `broker "${o.id}" is read-only for ${p.user}`;
  let copies = masked.get(o);
  if (!copies) masked.set(o, (copies = new Map()));
  const kept = copies.get(why);
  if (kept) return kept;
  const out = maskWith(o, why);
  if (copies.size < MASKED_COPIES) copies.set(why, out);
  return out;
}
