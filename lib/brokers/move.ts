import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError, isConsoleError } from './errors';
import { getMoveJournal } from './move-journal-open';
import { moveOne, type MoveBy, type MoveSteps } from './move-one';
import { pairMove, type MoveSide, type MoveTargetView } from './move-pairing';
import { findBrokerConfig, getAdapter, listBrokerConfigs } from './registry';
import type { ActionOutcome, ActionResult } from './schema';
import { hasNul, toConsoleError, withTimeout } from './service';
import { forgetReads } from './shared-reads';
import { mappedEnqueue } from './mapping/enqueue';
import { movesOf, recordMoves } from './moves-ledger';
import { backSteps } from './move-back';
import type { TaskCall } from './types';

/**
 * Dead letters moved to a broker of another system that shares their call model (potatoq and
 * Celery: task name, args, kwargs, queue), through what adapters declare (`model.calls`,
 * `exportCall`, `importCall`): nothing here knows a system.
 *
 * Exactly once, per id: (1) the letter is read as a call and enqueued on the target under its
 * own id; (2) the letter is removed from the source as a replay would leave it (with the result
 * record a replay there forgets, so find-by-id shows the task on the target only). A target takes a
 * call only where it can tell the id is already there (waiting, running, dead or finished):
 * targets that can't tell (RabbitMQ) declare their import off, with that reason. A task that
 * ran there without storing a result leaves no trace, though, so each id's move is written
 * ahead in the move journal, and a retry after a crash between (1) and (2) never sends again
 * (lib/brokers/move-one.ts).
 *
 * Between call models (positional calls into a named-payload system) each letter goes through
 * its task's call mapping (lib/brokers/mapping/) and the target's `importValue`, under an
 * idempotency key derived from the letter's id (`model.calls.keyed`): such a move that stopped
 * between its steps is simply sent again, and the target answers with the first job.
 */

export type MoveTarget = MoveTargetView;

export type MoveResult = ActionResult & { to: string };

const readMs = () => getConfig().timeouts.readMs;
const writeMs = () => getConfig().timeouts.writeMs;

async function sideOf(id: string): Promise<MoveSide> {
  const config = findBrokerConfig(id);
  const base = { id, name: config.name, readOnly: config.readOnly };
  let adapter;
  try {
    adapter = getAdapter(id);
  } catch (e) {
    const why = toConsoleError(e).message;
    return { ...base, model: null, exports: false, imports: false, caps: null, down: why };
  }
  const side = {
    ...base,
    model: adapter.model,
    exports: !!adapter.exportCall || !!adapter.exportValue,
    imports: !!adapter.importCall,
    importsValue: !!adapter.importValue,
  };
  try {
    return { ...side, caps: await withTimeout('capability probe', readMs(), () => adapter.capabilities()) };
  } catch (e) {
    return { ...side, caps: null, down: toConsoleError(e).message };
  }
}

/** Every other configured broker, each with whether this broker's letters can move there. */
export async function moveTargets(fromId: string): Promise<MoveTarget[]> {
  const from = await sideOf(fromId);
  const others = listBrokerConfigs().filter((b) => b.id !== fromId);
  return Promise.all(
    others.map(async (b) => {
      const to = await sideOf(b.id);
      return { id: b.id, name: b.name, pairing: pairMove(from, to) };
    }),
  );
}

/** The pairing of two brokers, refused as Unsupported with its reason when off. */
export async function requirePairing(fromId: string, toId: string): Promise<string> {
  findBrokerConfig(toId);
  const p = pairMove(await sideOf(fromId), await sideOf(toId));
  if (!p.on) throw new ConsoleError('Unsupported', p.why);
  return p.does;
}

const outcome = (id: string, code: ActionOutcome['outcome'], message: string): ActionOutcome => ({ id, outcome: code, message });

/** Step 2: the letter removed from the source as its replay leaves it (`removeMoved`: its
 *  FAILURE result goes in the same step), else with discard semantics. */
export async function removeFromSource(fromId: string, id: string, to?: { id: string; name: string }): Promise<ActionOutcome> {
  const from = getAdapter(fromId);
  const removeMoved = from.removeMoved?.bind(from);
  const remove = removeMoved ? (ids: string[]) => removeMoved(ids, to) : from.discardDead.bind(from);
  const r = await withTimeout('discard', writeMs(), () => remove([id]));
  const o = r.succeeded.find((x) => x.id === id) ?? r.failed.find((x) => x.id === id);
  return o ?? outcome(id, 'error', 'the broker did not say what happened to the letter');
}

/** The two brokers' steps, each with its timeout; errors mapped to ConsoleErrors. */
function stepsOf(fromId: string, toId: string, tasks: Map<string, string>): MoveSteps {
  const from = getAdapter(fromId);
  const to = getAdapter(toId);
  // Between call models the letter goes through its task's call mapping (lib/brokers/mapping/).
  const mapped = from.model.calls?.model !== to.model.calls?.model;
  const importCall = to.importCall?.bind(to);
  const importValue = to.importValue?.bind(to);
  const sides = { from: { id: fromId, name: from.name }, to: { id: toId, name: to.name } };
  // Named-payload letters back into positional calls (./move-back.ts).
  const back =
    mapped && from.exportValue && importCall
      ? backSteps(
          sides,
          { exportValue: from.exportValue.bind(from) },
          { importCall, taskQueues: to.taskQueues?.bind(to) },
          { seen: seenOn },
        )
      : null;
  if (!back && (!from.exportCall || (mapped ? !importValue : !importCall)))
    throw new ConsoleError('Unsupported', 'these brokers cannot move letters');
  const exportCall = back ? back.read : from.exportCall!.bind(from);
  const send = back ? back.enqueue : mapped ? mappedEnqueue(sides, (job) => importValue!(job)) : (call: TaskCall) => importCall!(call);
  return {
    from: { ...sides.from, marks: from.model.calls?.leaves === 'replay' },
    to: { ...sides.to, drops: to.model.calls?.drops, keyed: mapped && !back ? to.model.calls?.keyed : undefined },
    // (Each letter's task name kept for the moves ledger.)
    read: async (id) => {
      const c = await withTimeout('letter read', readMs(), () => exportCall(id));
      if (c) tasks.set(id, c.task);
      return c;
    },
    enqueue: (call) => withTimeout('enqueue', writeMs(), () => send(call)).finally(() => forgetReads(toId)),
    remove: (id) => removeFromSource(fromId, id, sides.to).finally(() => forgetReads(fromId)),
    seen: back ? (brokerId, id) => withTimeout('lookup', readMs(), () => back.seen(brokerId, id)) : seenOn,
    nameOf(brokerId) {
      try {
        return findBrokerConfig(brokerId).name;
      } catch {
        return brokerId;
      }
    },
  };
}

/** Whether broker `brokerId` reports a task with this id (`findCall`), null when it cannot tell. */
async function seenOn(brokerId: string, id: string): Promise<string | null> {
  let a;
  try {
    a = getAdapter(brokerId);
  } catch (e) {
    // A broker no longer configured (or its system gone) cannot tell.
    if (isConsoleError(e) && e.code === 'NotFound') return null;
    throw e;
  }
  const find = a.findCall?.bind(a);
  return find ? withTimeout('lookup', readMs(), () => find(id)) : null;
}

/** How long one id's move may take (its three steps' timeouts, and a margin): an unfinished
 *  journal row younger than that may belong to a move still running. */
export const leaseMs = () => readMs() + 2 * writeMs() + 5_000;

/**
 * Moves dead letters `ids` of broker `fromId` to broker `toId`, per id, each under the move
 * journal (lib/brokers/move-one.ts). `by` says who (kept in the journal, shown to the next
 * operator who finds an unfinished move); `force` moves over an unfinished earlier move.
 */
export async function moveDead(fromId: string, toId: string, ids: string[], by: Omit<MoveBy, 'leaseMs'>): Promise<MoveResult> {
  if (hasNul(ids)) throw new ConsoleError('InvalidInput', 'input contains a NUL character');
  const config = findBrokerConfig(fromId);
  if (config.readOnly) throw new ConsoleError('ReadOnly', `broker "${fromId}" is configured read-only`);
  await requirePairing(fromId, toId);
  const journal = await getMoveJournal();
  const tasks = new Map<string, string>();
  const steps = stepsOf(fromId, toId, tasks);
  const succeeded: ActionOutcome[] = [];
  const failed: ActionOutcome[] = [];
  for (const id of [...new Set(ids)]) {
    let o: ActionOutcome;
    try {
      o = await moveOne(journal, steps, id, { ...by, leaseMs: leaseMs() });
    } catch (e) {
      o = outcome(id, 'error', isConsoleError(e) ? e.message : toConsoleError(e).message);
    }
    (o.outcome === 'ok' || o.outcome === 'already' ? succeeded : failed).push(o);
  }
  await recordMoves(movesOf({ source: fromId, target: toId }, succeeded, { who: by.by, auditId: by.auditId ?? null, tasks }));
  return { action: 'move', brokerId: fromId, to: toId, requested: ids.length, succeeded, failed };
}
