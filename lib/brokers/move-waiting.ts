import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError, isConsoleError } from './errors';
import { getMoveHeld } from './move-held';
import { getMoveJournal } from './move-journal-open';
import type { MoveBy } from './move-one';
import { moveWaitingOne, type WaitingSteps } from './move-waiting-one';
import { leaseMs, type MoveResult } from './move';
import type { MoveTargetView } from './move-pairing';
import { findBrokerConfig, getAdapter, listBrokerConfigs } from './registry';
import type { ActionOutcome } from './schema';
import { hasNul, toConsoleError, withTimeout } from './service';
import { forgetReads } from './shared-reads';
import { mappedEnqueue, mappedJob } from './mapping/enqueue';
import { BACK_DOES, backTargetWhy, backWaitingSteps } from './move-waiting-back';
import { movesOf, recordMoves } from './moves-ledger';

/**
 * Waiting tasks (not yet run) moved to a broker of another call model through their task's call
 * mapping, per id (lib/brokers/move-waiting-one.ts), from what adapters declare: the source's
 * `model.calls.waiting` with `peekWaiting`/`takeWaiting`, a target whose import is keyed
 * (`model.calls.keyed`: the same key returns the first job), since a task taken from the source
 * and not yet confirmed on the target is sent again after a crash. Nothing here knows a system.
 */

const readMs = () => getConfig().timeouts.readMs;
const writeMs = () => getConfig().timeouts.writeMs;

/** Why waiting tasks of `fromId` cannot move to `toId`, or null. Nothing changes. */
export async function waitingPairing(fromId: string, toId: string): Promise<{ on: true; does: string } | { on: false; why: string }> {
  const fc = findBrokerConfig(fromId);
  const tc = findBrokerConfig(toId);
  const off = (why: string) => ({ on: false as const, why });
  if (fromId === toId) return off('the tasks are already on this broker');
  const from = getAdapter(fromId);
  const to = getAdapter(toId);
  const w = from.model.calls?.waiting;
  if (!w) return off(`${from.name} moves dead letters only: its system declares no way to take waiting tasks as calls`);
  if ('why' in w) return off(`${from.name} cannot hand waiting tasks over as calls: ${w.why}`);
  // `back`: named-payload jobs to positional calls (./move-waiting-back.ts).
  const back = !!from.peekWaitingValue;
  if (!(from.peekWaiting || back) || !from.takeWaiting) return off(`${from.name}'s adapter does not take waiting tasks`);
  const tcalls = to.model.calls;
  const backWhy = back ? backTargetWhy(from, to) : null;
  if (backWhy) return off(backWhy);
  if (!back && (!tcalls || tcalls.model === from.model.calls?.model || !to.importValue))
    return off(`${to.name} does not create jobs through a call mapping, so waiting tasks cannot move there`);
  if (!tcalls) return off(`${to.name} does not take calls from another broker`);
  if ('why' in tcalls.import) return off(`${to.name} cannot take calls from another broker: ${tcalls.import.why}`);
  if (!back && !tcalls.keyed)
    return off(`${to.name} has no idempotency key, so a task taken here and sent again after a crash could run twice there`);
  if (fc.readOnly) return off(`${from.name} is configured read-only, so its tasks cannot be taken there`);
  if (tc.readOnly) return off(`${to.name} is configured read-only, so nothing can be created there`);
  const caps = await withTimeout('capability probe', readMs(), () => to.capabilities()).catch((e: unknown) => toConsoleError(e));
  if (isConsoleError(caps)) return off(`${to.name} cannot be reached: ${caps.message}`);
  if (!caps.enqueue.on) return off(`${to.name} cannot take new tasks: ${caps.enqueue.why ?? 'off'}`);
  if (back) return { on: true, does: `${w.does} ${tcalls.import.does} ${BACK_DOES}` };
  return {
    on: true,
    does: `${w.does} ${tcalls.import.does} Each task goes through the call mapping of its name; its eta becomes the job's run_at. ${tcalls.keyed}.`,
  };
}

/** Every other broker, each with whether this broker's waiting tasks can move there, and why not
 *  (`back`: named-payload jobs going back as calls, which the move preview does not show yet). */
export async function waitingTargets(fromId: string): Promise<MoveTargetView[]> {
  const others = listBrokerConfigs().filter((b) => b.id !== fromId);
  const back = (() => {
    try {
      return !!getAdapter(fromId).peekWaitingValue;
    } catch {
      return false;
    }
  })();
  return Promise.all(
    others.map(async (b) => {
      const p = await waitingPairing(fromId, b.id).catch((e: unknown) => ({ on: false as const, why: toConsoleError(e).message }));
      return { id: b.id, name: b.name, pairing: p.on ? { on: true as const, does: p.does, mapped: true, ...(back ? { back } : {}) } : p };
    }),
  );
}

function stepsOf(fromId: string, toId: string): WaitingSteps {
  const from = getAdapter(fromId);
  const to = getAdapter(toId);
  const sides = { from: { id: fromId, name: from.name }, to: { id: toId, name: to.name } };
  const back = from.peekWaitingValue ? backWaitingSteps(sides, from, to) : null;
  const peek = back ? back.peek : (id: string) => from.peekWaiting!(id);
  const send = back ? back.enqueue : mappedEnqueue(sides, (job) => to.importValue!(job));
  return {
    ...sides,
    peek: (id) => withTimeout('task read', readMs(), () => peek(id)),
    check: back ? back.check : async (call) => void (await mappedJob(sides, call)),
    take: (id, claim) => withTimeout('take', writeMs(), () => from.takeWaiting!(id, claim)).finally(() => forgetReads(fromId)),
    took: async (id) => (from.tookWaiting ? withTimeout('lookup', readMs(), () => from.tookWaiting!(id)) : null),
    enqueue: (call) => withTimeout('enqueue', writeMs(), () => send(call)).finally(() => forgetReads(toId)),
    nameOf(brokerId) {
      try {
        return findBrokerConfig(brokerId).name;
      } catch {
        return brokerId;
      }
    },
  };
}

/** Moves waiting tasks `ids` of `fromId` to `toId`, per id; Unsupported with why when off. */
export async function moveWaiting(fromId: string, toId: string, ids: string[], by: Omit<MoveBy, 'leaseMs'>): Promise<MoveResult> {
  if (hasNul(ids)) throw new ConsoleError('InvalidInput', 'input contains a NUL character');
  const p = await waitingPairing(fromId, toId);
  if (!p.on) throw new ConsoleError(findBrokerConfig(fromId).readOnly ? 'ReadOnly' : 'Unsupported', p.why);
  const [journal, held] = [await getMoveJournal(), await getMoveHeld()];
  const steps = stepsOf(fromId, toId);
  // Each task's name kept for the moves ledger (lib/brokers/moves-ledger.ts).
  const tasks = new Map<string, string>();
  const peek = steps.peek;
  steps.peek = async (id) => {
    const p = await peek(id);
    if (p) tasks.set(id, p.call.task);
    return p;
  };
  const succeeded: ActionOutcome[] = [];
  const failed: ActionOutcome[] = [];
  for (const id of [...new Set(ids)]) {
    let o: ActionOutcome;
    try {
      o = await moveWaitingOne(journal, held, steps, id, { ...by, leaseMs: leaseMs() });
    } catch (e) {
      o = { id, outcome: 'error', message: toConsoleError(e).message };
    }
    (o.outcome === 'ok' || o.outcome === 'already' ? succeeded : failed).push(o);
  }
  await recordMoves(movesOf({ source: fromId, target: toId }, succeeded, { who: by.by, auditId: by.auditId ?? null, tasks }));
  return { action: 'move', brokerId: fromId, to: toId, requested: ids.length, succeeded, failed };
}
