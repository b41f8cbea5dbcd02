import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { requirePairing } from '@/lib/brokers/move';
import { mayWrite, type Principal } from '@/lib/auth/resolve';

/** A bulk move's target, checked when the snapshot is taken and again at each start or resume:
 *  the caller may write there too, and the two brokers still pair (with the reason if not). */
export async function requireMoveTarget(principal: Principal, from: string, to: string | undefined): Promise<void> {
  if (!to) throw new ConsoleError('InvalidInput', 'filter.to: name the broker to move to', { 'filter.to': 'required for a move' });
  if (!mayWrite(principal, to)) throw new ConsoleError('Forbidden', `${principal.user} may only read broker "${to}"`);
  await requirePairing(from, to);
}
