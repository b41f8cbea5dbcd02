import 'server-only';
import { ConsoleError, isConsoleError } from './errors';
import { beginMove, newMoveRow, quietly } from './move-begin';
import type { MoveHeld } from './move-held';
import type { JournalRow, MoveJournal } from './move-journal';
import type { MoveBy } from './move-one';
import type { ActionOutcome, OutcomeCode } from './schema';
import type { TaskCall } from './types';

/**
 * One waiting task's move, under the move journal. A waiting task must leave its source before
 * it reaches the target (a worker there could take it meanwhile), so the order is the reverse
 * of a dead letter's (lib/brokers/move-one.ts): the journal row, then the call held in the state
 * store (lib/brokers/move-held.ts), then the exact message taken from the source in one atomic
 * step, then the job created on a keyed target (the same key again returns the first job), then
 * the row and the held call deleted. Whatever the moment of a crash, the task is waiting on the
 * source, or held here, or on the target: a later move of the id finds the row, takes the task
 * if it still waits, and sends the held call again (the target answers with the first job).
 * A worker that took the task first keeps it: nothing is sent.
 */

type Sent = { outcome: 'ok' | 'already'; message: string; taskId?: string };

export interface WaitingSteps {
  from: { id: string; name: string };
  to: { id: string; name: string };
  peek(id: string): Promise<{ call: TaskCall; claim: string } | null>;
  /** The call as the target would take it, checked without sending (InvalidInput with why). */
  check(call: TaskCall): Promise<void>;
  take(id: string, claim: string): Promise<boolean>;
  /** Whether an earlier take removed it; null when the source cannot tell. */
  took(id: string): Promise<boolean | null>;
  /** A keyed target: the same call again returns the first job (`already`). */
  enqueue(call: TaskCall): Promise<Sent>;
  nameOf(brokerId: string): string;
}

const outcome = (id: string, code: OutcomeCode, message: string, extra: Partial<ActionOutcome> = {}): ActionOutcome => ({
  id,
  outcome: code,
  message,
  ...extra,
});
const toErr = (e: unknown) => (isConsoleError(e) ? e : new ConsoleError('BrokerUnavailable', e instanceof Error ? e.message : String(e)));

export async function moveWaitingOne(
  journal: MoveJournal,
  held: MoveHeld,
  s: WaitingSteps,
  id: string,
  by: MoveBy,
): Promise<ActionOutcome> {
  const mine = newMoveRow(s.from.id, s.to.id, id, by);
  let got: Awaited<ReturnType<MoveJournal['begin']>>;
  try {
    got = await beginMove(journal, mine);
  } catch (e) {
    return outcome(id, 'error', `not moved: the move journal could not be written (${toErr(e).message}); nothing was taken`);
  }
  if (got.won) return fresh(journal, held, s, mine, null);
  const prev = got.row;
  const who = prev ? ` (a move at ${prev.at} by ${prev.who} to ${s.nameOf(prev.target)})` : '';
  if (!prev || prev.untilMs > Date.now())
    return outcome(id, 'conflict', `not moved: it is being moved by another operation${who}; nothing was taken or sent`);
  if (prev.target !== s.to.id)
    return outcome(
      id,
      'conflict',
      `not moved: an earlier move${who} did not finish; move it to ${s.nameOf(prev.target)} again to finish it`,
    );
  if (!(await journal.takeOver(prev, mine).catch(() => false)))
    return outcome(id, 'conflict', `not moved: it is being moved by another operation${who}; nothing was taken or sent`);
  const prefix = `after an earlier move${who} that did not finish: `;
  let h;
  try {
    h = await held.get(s.from.id, id);
  } catch (e) {
    return keep(journal, s, mine, `${prefix}not moved: the call it held could not be read (${toErr(e).message})`);
  }
  return fresh(journal, held, s, mine, h && h.moveId === prev.moveId ? h.call : null, prefix);
}

/** Peek, hold, take, send. `earlier`: the call an earlier attempt held (it may have taken it). */
async function fresh(
  journal: MoveJournal,
  held: MoveHeld,
  s: WaitingSteps,
  row: JournalRow,
  earlier: TaskCall | null,
  prefix = '',
): Promise<ActionOutcome> {
  const id = row.id;
  const stop = async (code: OutcomeCode, message: string) => {
    await quietly('drop', held.drop(s.from.id, id));
    await quietly('clear', journal.clear(row));
    return outcome(id, code, `${prefix}${message}`);
  };
  let peeked: { call: TaskCall; claim: string } | null;
  try {
    peeked = await s.peek(id);
  } catch (e) {
    const err = toErr(e);
    if (earlier) return keep(journal, s, row, `${prefix}not moved: it could not be read on ${s.from.name} (${err.message})`);
    return stop(err.code === 'InvalidInput' ? 'invalid' : 'error', `not moved: ${err.message}; nothing was taken`);
  }
  if (!peeked) {
    if (!earlier)
      return stop('missing', `not moved: not waiting on ${s.from.name} (a worker took it, or it is not a waiting task); nothing was sent`);
    let took: boolean | null;
    try {
      took = await s.took(id);
    } catch (e) {
      return keep(
        journal,
        s,
        row,
        `${prefix}not moved: ${s.from.name} could not say whether the earlier move took it (${toErr(e).message})`,
      );
    }
    if (took === false) return stop('conflict', `not moved: a worker on ${s.from.name} took it before the move could; nothing was sent`);
    return send(journal, held, s, row, earlier, prefix);
  }
  try {
    await s.check(peeked.call);
    await held.hold(s.from.id, { moveId: row.moveId, call: peeked.call, claim: peeked.claim });
  } catch (e) {
    const err = toErr(e);
    return stop(err.code === 'InvalidInput' ? 'invalid' : 'error', `not moved: ${err.message}; nothing was taken`);
  }
  let taken: boolean;
  try {
    taken = await s.take(id, peeked.claim);
  } catch (e) {
    return keep(
      journal,
      s,
      row,
      `${prefix}not moved: taking it from ${s.from.name} failed (${toErr(e).message}); it may or may not have left`,
    );
  }
  if (!taken) return stop('conflict', `not moved: a worker on ${s.from.name} took it before the move could; nothing was sent`);
  return send(journal, held, s, row, peeked.call, prefix);
}

async function send(journal: MoveJournal, held: MoveHeld, s: WaitingSteps, row: JournalRow, call: TaskCall, prefix: string) {
  let sent: Sent;
  try {
    sent = await s.enqueue(call);
  } catch (e) {
    return keep(
      journal,
      s,
      row,
      `${prefix}taken from ${s.from.name}, but creating it on ${s.to.name} failed (${toErr(e).message}): it is held in the console's move journal, runnable nowhere; move it again to send it`,
    );
  }
  await quietly('drop', held.drop(s.from.id, row.id));
  await quietly('clear', journal.clear(row));
  const on = sent.outcome === 'ok' ? `created on ${s.to.name} (${sent.message})` : `already on ${s.to.name} (${sent.message})`;
  return outcome(row.id, sent.outcome, `${prefix}${on}; taken from ${s.from.name}`, sent.taskId ? { taskId: sent.taskId } : {});
}

/** The attempt stops with its row (and held call) kept: moving the id again finishes it. */
async function keep(journal: MoveJournal, _s: WaitingSteps, row: JournalRow, message: string): Promise<ActionOutcome> {
  await quietly('end', journal.end(row, message));
  return outcome(row.id, 'error', message);
}
