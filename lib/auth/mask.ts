import 'server-only';
import { WRITE_ACTIONS, type BrokerOverview } from '@/lib/brokers/schema';
import { mayWrite, type Principal } from './resolve';

/**
 * The overview as this principal may use it: write capabilities a viewer (or an operator on a
 * broker that is read-only for them) cannot use are off, with the reason, so the UI disables
 * the buttons by the same flags. The gate refuses again on the server.
 */
export function overviewFor(o: BrokerOverview, p: Principal | null): BrokerOverview {
  if (p && mayWrite(p, o.id)) return o;
  const why = !p ? 'sign in first' : p.role === 'viewer' ? `${p.user} is a viewer` : `broker "${o.id}" is read-only for ${p.user}`;
  const capabilities = { ...o.capabilities };
  for (const k of WRITE_ACTIONS) if (capabilities[k]?.on) capabilities[k] = { on: false, why, code: 'Forbidden' };
  if (capabilities['schedules:write']?.on) capabilities['schedules:write'] = { on: false, why, code: 'Forbidden' };
  return { ...o, capabilities };
}
