import 'server-only';
import { moveWaiting, waitingTargets } from '@/lib/brokers/move-waiting';
import { gate, logIds } from './gate';
import { known, ZMoveRequest } from './move';
import { resolvePrincipal } from './principal';

/**
 * Waiting tasks moved to another broker (lib/brokers/move-waiting.ts), behind the same two
 * gates as a dead letters' move: the operator role and write access on each broker, a reason,
 * taking work off this one (the revoke capability: a waiting task leaves its queue) and
 * enqueueing on the other; both audit trails get an entry naming the other, with per-id outcomes.
 */
export const moveWaitingOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'move',
    brokerId,
    capability: 'revoke',
    schema: ZMoveRequest,
    input,
    headers,
    reasonRequired: true,
    target: (m) => ({ to: m.to, state: 'waiting' }),
    run: async ({ to }, outer) => {
      known(to);
      return gate({
        action: 'move-in',
        brokerId: to,
        capability: 'enqueue',
        schema: ZMoveRequest,
        input,
        headers,
        reasonRequired: true,
        target: () => ({ from: brokerId, state: 'waiting' }),
        run: ({ ids }) => moveWaiting(brokerId, to, ids, { by: outer.principal.user, auditId: outer.auditId }),
        audit: ({ ids }, r) => ({ from: brokerId, waiting: true, ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
      });
    },
    audit: ({ ids, to }, r) => ({ to, waiting: true, ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

/** The other brokers, each with whether this broker's waiting tasks can move there, and why not. */
export async function waitingTargetsOp(brokerId: string, headers: Headers) {
  await resolvePrincipal(headers);
  known(brokerId);
  return waitingTargets(brokerId);
}
