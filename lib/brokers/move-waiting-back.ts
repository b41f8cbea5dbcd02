import 'server-only';
import { callBack } from './move-back';
import type { WaitingSteps } from './move-waiting-one';
import type { BrokerAdapter } from './types';

/**
 * Waiting jobs of a named payload (`peekWaitingValue`) moved back to a broker of positional
 * calls: each job read as the call of the mapping whose target task is its name (as a dead
 * letter's way back, lib/brokers/move-back.ts), enqueued under the job's id, so a held call
 * sent again after a crash, or by a second console, is `already` there. Nothing here knows a
 * system.
 */

type Sides = Pick<WaitingSteps, 'from' | 'to'>;

/** Why `to` cannot take `from`'s waiting jobs as calls, or null. */
export function backTargetWhy(from: BrokerAdapter, to: BrokerAdapter): string | null {
  const tcalls = to.model.calls;
  if (!tcalls || tcalls.model === from.model.calls?.model || !to.importCall)
    return `${to.name} does not enqueue calls of another call model, so waiting jobs cannot move there`;
  if ('why' in tcalls.import) return `${to.name} cannot take calls from another broker: ${tcalls.import.why}`;
  return null;
}

export const BACK_DOES =
  "Each job goes through the call mapping whose target task is its name (the mapping's payload keys back to positional arguments, every other key a kwarg) and is enqueued under the job's id, so a move sent again finds it there and sends nothing.";

/** The read and the send of a waiting move back (the take and its check are the source's). */
export function backWaitingSteps(s: Sides, from: BrokerAdapter, to: BrokerAdapter): Pick<WaitingSteps, 'peek' | 'check' | 'enqueue'> {
  return {
    async peek(id) {
      const p = await from.peekWaitingValue!(id);
      return p ? { call: await callBack(s, p.letter, to), claim: p.claim } : null;
    },
    // The peek converted it already (a job the mapping cannot convert is refused there).
    check: async () => undefined,
    async enqueue(call) {
      const sent = await to.importCall!(call);
      return { ...sent, message: sent.outcome === 'ok' ? `as task ${call.id}: ${sent.message}` : sent.message, taskId: call.id };
    },
  };
}
