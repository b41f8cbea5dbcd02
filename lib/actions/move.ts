import 'server-only';
import { z } from 'zod';
import { ZIds } from '@/lib/brokers/schema';
import { moveDead, moveTargets } from '@/lib/brokers/move';
import { ConsoleError } from '@/lib/brokers/errors';
import { brokerList, brokerModel } from '@/lib/brokers/service';
import { leaveCapability } from '@/lib/brokers/move-pairing';
import { gate, logIds } from './gate';
import { resolvePrincipal } from './principal';
import { fingerprintsBefore, movedItems, recordItems } from '@/lib/campaigns/record';

export const ZMoveRequest = ZIds.extend({
  /** The broker the letters go to. */
  to: z.string().trim().min(1, 'to: name the broker to move to').max(200),
  reason: z.string().max(1000).optional(),
  queue: z.string().max(500).optional(),
  /** Move even over an earlier move of the letter that did not finish (the operator checked the target). */
  force: z.boolean({ error: 'force: true or false' }).optional(),
});

const forced = (force: boolean | undefined) => (force ? { force: true } : {});

export function known(id: string): void {
  if (!brokerList().some((b) => b.id === id)) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
}

/**
 * Dead letters moved to another broker: the gate runs for both brokers, one inside the other,
 * so the caller needs the operator role and write access on each (checked here, on the
 * server), a reason, and each broker's capability (removing letters here as they leave it,
 * enqueueing there);
 * each broker's audit trail gets its own entry naming the other, with the per-id outcomes.
 * `force` ("move anyway", over an earlier move that did not finish and may have delivered the
 * task) needs nothing more than a move does: the operators who may move a letter may also
 * discard or replay it, which are as final. It is recorded in both entries (`force: true`).
 */
export const moveDeadOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'move',
    brokerId,
    // Removing the letters here: a discard, or a replay where the system cannot delete one.
    capability: () => leaveCapability(brokerModel(brokerId)),
    schema: ZMoveRequest,
    input,
    headers,
    reasonRequired: true,
    target: (m) => ({ to: m.to }),
    run: async ({ to, ids }, outer) => {
      known(to);
      // The letters' errors are read here, where they died; the tasks are followed on `to`.
      const before = await fingerprintsBefore(brokerId, ids);
      const r = await gate({
        action: 'move-in',
        brokerId: to,
        capability: 'enqueue',
        schema: ZMoveRequest,
        input,
        headers,
        reasonRequired: true,
        target: () => ({ from: brokerId }),
        run: ({ ids, force }) => moveDead(brokerId, to, ids, { by: outer.principal.user, auditId: outer.auditId, force: force === true }),
        audit: ({ ids, force }, r) => ({
          from: brokerId,
          ...forced(force),
          ...logIds(ids),
          succeeded: r.succeeded.length,
          failed: r.failed.length,
        }),
      });
      const by = { who: outer.principal.user, reason: outer.reason, auditId: outer.auditId, parent: null, filter: null };
      // Followed under the ids the target gave them (the moves ledger keeps the pairs too).
      const campaign = await recordItems({ broker: to, action: 'move', ...by, from: brokerId }, movedItems(r.succeeded, before));
      return campaign ? { ...r, campaign } : r;
    },
    audit: ({ ids, to, force }, r) => ({ to, ...forced(force), ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

/** The other brokers, each with whether this broker's letters can move there, and why not. */
export async function moveTargetsOp(brokerId: string, headers: Headers) {
  await resolvePrincipal(headers);
  known(brokerId);
  return moveTargets(brokerId);
}
