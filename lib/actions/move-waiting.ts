import 'server-only';
import { moveWaiting, waitingTargets } from '@/lib/brokers/move-waiting';
import { movedItems, recordItems } from '@/lib/campaigns/record';
import { gate, logIds } from './gate';
import { known, ZMoveRequest } from './move';
import { resolvePrincipal } from './principal';

/**
 * Waiting tasks moved to another broker (lib/brokers/move-waiting.ts), behind the same two
 * gates as a dead letters' move: the operator role and write access on each broker, a reason,
 * taking work off this one (the revoke capability: a waiting task leaves its queue) and
 * enqueueing on the other; both audit trails get an entry naming the other, with per-id outcomes.
 * The tasks now on the other broker become a campaign followed there (docs/campaigns.md).
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
      const r = await gate({
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
      // Followed on the target under the ids it gave them; they never ran, so nothing died before.
      const by = { who: outer.principal.user, reason: outer.reason, auditId: outer.auditId, parent: null, filter: null };
      const c = { broker: to, action: 'move-waiting', ...by, from: brokerId, firstRun: true };
      const campaign = await recordItems(c, movedItems(r.succeeded));
      return campaign ? { ...r, campaign } : r;
    },
    audit: ({ ids, to }, r) => ({ to, waiting: true, ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

/** The other brokers, each with whether this broker's waiting tasks can move there, and why not. */
export async function waitingTargetsOp(brokerId: string, headers: Headers) {
  await resolvePrincipal(headers);
  known(brokerId);
  return waitingTargets(brokerId);
}
