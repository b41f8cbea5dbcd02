import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError, isConsoleError } from './errors';
import { pairMove, type MoveSide, type MoveTargetView } from './move-pairing';
import { findBrokerConfig, getAdapter, listBrokerConfigs } from './registry';
import type { ActionOutcome, ActionResult } from './schema';
import { hasNul, toConsoleError, withTimeout } from './service';

/**
 * Dead letters moved to a broker of another system that shares their call model (potatoq and
 * Celery: task name, args, kwargs, queue), through what adapters declare (`model.calls`,
 * `exportCall`, `importCall`): nothing here knows a system.
 *
 * Exactly once, per id: (1) the letter is read as a call and enqueued on the target under its
 * own id; (2) the letter is removed from the source as a discard removes it. A target takes a
 * call only where it can tell the id is already there (waiting, running, dead or finished), so
 * a move retried after a crash between (1) and (2) finds it there (`already`) and only does (2).
 * Targets that can't tell (RabbitMQ) declare their import off, with that reason.
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
  const side = { ...base, model: adapter.model, exports: !!adapter.exportCall, imports: !!adapter.importCall };
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

/** Step 1 of a move: the letter read as a call and enqueued on the target. `ok` / `already`
 *  mean the task is on the target; anything else, that nothing was written there. */
export async function copyToTarget(fromId: string, toId: string, id: string): Promise<ActionOutcome> {
  const from = getAdapter(fromId);
  const to = getAdapter(toId);
  if (!from.exportCall || !to.importCall) throw new ConsoleError('Unsupported', 'these brokers cannot move letters');
  try {
    const call = await withTimeout('letter read', readMs(), () => from.exportCall!(id));
    if (!call) return outcome(id, 'missing', `not a dead letter on ${from.name} (moved, replayed or discarded already?)`);
    const r = await withTimeout('enqueue', writeMs(), () => to.importCall!(call));
    return outcome(id, r.outcome, r.message);
  } catch (e) {
    const err = toConsoleError(e);
    const code = err.code === 'InvalidInput' ? 'invalid' : err.code === 'Conflict' ? 'conflict' : 'error';
    return outcome(id, code, err.message);
  }
}

/** Step 2: the letter removed from the source (discard semantics). */
export async function removeFromSource(fromId: string, id: string): Promise<ActionOutcome> {
  const from = getAdapter(fromId);
  const r = await withTimeout('discard', writeMs(), () => from.discardDead([id]));
  const o = r.succeeded.find((x) => x.id === id) ?? r.failed.find((x) => x.id === id);
  return o ?? outcome(id, 'error', 'the broker did not say what happened to the letter');
}

/** Both steps for one id, with one outcome that says where the task is now. */
async function moveOne(fromId: string, toId: string, id: string): Promise<ActionOutcome> {
  const fromName = findBrokerConfig(fromId).name;
  const toName = findBrokerConfig(toId).name;
  const copied = await copyToTarget(fromId, toId, id);
  if (copied.outcome !== 'ok' && copied.outcome !== 'already') return { ...copied, message: `not moved: ${copied.message}` };
  let removed: ActionOutcome;
  try {
    removed = await removeFromSource(fromId, id);
  } catch (e) {
    removed = outcome(id, 'error', toConsoleError(e).message);
  }
  const on = copied.outcome === 'ok' ? `enqueued on ${toName} (${copied.message})` : `already on ${toName} (${copied.message})`;
  if (removed.outcome === 'ok') return outcome(id, copied.outcome, `${on}; removed from ${fromName}`);
  if (removed.outcome === 'missing')
    return outcome(
      id,
      'conflict',
      `${on}, but the letter had already left ${fromName} (replayed or discarded meanwhile?): check that it runs once`,
    );
  // The task is on the target; the letter stays: moving it again finds it there (`already`).
  return outcome(id, 'error', `${on}, but removing it from ${fromName} failed (${removed.message}): move it again to remove it`);
}

/** Moves dead letters `ids` of broker `fromId` to broker `toId`, per id. */
export async function moveDead(fromId: string, toId: string, ids: string[]): Promise<MoveResult> {
  if (hasNul(ids)) throw new ConsoleError('InvalidInput', 'input contains a NUL character');
  const config = findBrokerConfig(fromId);
  if (config.readOnly) throw new ConsoleError('ReadOnly', `broker "${fromId}" is configured read-only`);
  await requirePairing(fromId, toId);
  const succeeded: ActionOutcome[] = [];
  const failed: ActionOutcome[] = [];
  for (const id of [...new Set(ids)]) {
    let o: ActionOutcome;
    try {
      o = await moveOne(fromId, toId, id);
    } catch (e) {
      o = outcome(id, 'error', isConsoleError(e) ? e.message : toConsoleError(e).message);
    }
    (o.outcome === 'ok' || o.outcome === 'already' ? succeeded : failed).push(o);
  }
  return { action: 'move', brokerId: fromId, to: toId, requested: ids.length, succeeded, failed };
}
