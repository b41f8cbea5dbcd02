import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { requirePairing } from '@/lib/brokers/move';
import { waitingPairing } from '@/lib/brokers/move-waiting';
import { mayWrite, type Principal } from '@/lib/auth/resolve';
import type { BulkAction } from './schema';

/** A bulk move's target, checked when the snapshot is taken and again at each start or resume:
 *  the caller may write there too, and the two brokers still pair (with the reason if not):
 *  dead letters by `requirePairing`, waiting tasks by `waitingPairing`. */
export async function requireMoveTarget(
  principal: Principal,
  from: string,
  to: string | undefined,
  action: BulkAction = 'move',
): Promise<void> {
  if (!to) throw new ConsoleError('InvalidInput', 'filter.to: name the broker to move to', { 'filter.to': 'required for a move' });
  if (!mayWrite(principal, to)) throw new ConsoleError('Forbidden', `${principal.user} may only read broker "${to}"`);
  if (action !== 'move-waiting') {
    await requirePairing(from, to);
    return;
  }
  const p = await waitingPairing(from, to);
  if (!p.on) throw new ConsoleError('Unsupported', p.why, { 'filter.to': p.why });
}
