import 'server-only';
import { ConsoleError, isConsoleError } from './errors';
import { beginMove, newMoveRow, quietly } from './move-begin';
import type { JournalRow, MoveJournal } from './move-journal';
import type { ActionOutcome, OutcomeCode } from './schema';
import type { TaskCall } from './types';

/**
 * One id of a move, under the move journal (lib/brokers/move-journal.ts). Write-ahead: the
 * journal row is committed before the letter is even read, then (1) the call is enqueued on
 * the target, (2) the letter removed here, and only then the row deleted. So whatever the
 * moment of a crash, either nothing was sent or a row says a move began. A later move of the
 * id finds that row and sends nothing: where the row's target reports the id (`already`) it
 * only does (2); where it does not (the task may have run there without leaving a trace, as
 * potatoq's `ignore_result` tasks do), it says so and leaves the decision to the operator
 * (discard here, replay here, or move anyway with `force`). A console replay or discard of the
 * letter here forgets such a row once its lease has passed (lib/brokers/move-journal-forget.ts).
 */

/** What a move does on the two brokers, with timeouts (lib/brokers/move.ts). */
export interface MoveSteps {
  /** `marks`: the source cannot delete a letter; `remove` marks it, its outcome says how. */
  from: { id: string; name: string; marks?: boolean };
  /** `drops`: what a call cannot keep there, with why (its `model.calls.drops`). */
  to: { id: string; name: string; drops?: { ignoreResult?: string }; keyed?: string };
  /** The letter as a call; null when it is not a dead letter here. */
  read(id: string): Promise<TaskCall | null>;
  /** `keyed` targets: a second enqueue of the id returns the first task (`already`). */
  enqueue(call: TaskCall): Promise<{ outcome: 'ok' | 'already'; message: string; taskId?: string }>;
  /** The letter removed here (discard semantics): its per-id outcome. */
  remove(id: string): Promise<ActionOutcome>;
  /** Whether broker `brokerId` reports a task with this id (the words why), null when it
   *  cannot tell; nothing changes. */
  seen(brokerId: string, id: string): Promise<string | null>;
  nameOf(brokerId: string): string;
}

export interface MoveBy {
  /** Who moves: a user, or a bulk job and the user who started it. */
  by: string;
  auditId?: string | null;
  /** Move even over an earlier move that did not finish (the operator checked the target). */
  force?: boolean;
  /** How long an attempt may take before its row counts as stopped (its steps' timeouts). */
  leaseMs: number;
}

const outcome = (id: string, code: OutcomeCode, message: string, extra: Partial<ActionOutcome> = {}): ActionOutcome => ({
  id,
  outcome: code,
  message,
  ...extra,
});

// The steps map broker errors already (lib/brokers/move.ts); anything else is unexpected.
const toConsoleError = (e: unknown) =>
  isConsoleError(e) ? e : new ConsoleError('BrokerUnavailable', e instanceof Error ? e.message : String(e));
const errText = (e: unknown) => toConsoleError(e).message;

const describe = (s: MoveSteps, r: JournalRow) => `a move at ${r.at} by ${r.who} to ${s.nameOf(r.target)}`;

export async function moveOne(journal: MoveJournal, s: MoveSteps, id: string, by: MoveBy): Promise<ActionOutcome> {
  const mine = newMoveRow(s.from.id, s.to.id, id, by);
  let got: Awaited<ReturnType<MoveJournal['begin']>>;
  try {
    got = await beginMove(journal, mine);
  } catch (e) {
    return outcome(id, 'error', `not moved: the move journal could not be written (${errText(e)}); nothing was sent`);
  }
  if (got.won) return fresh(journal, s, mine);
  const prev = got.row;
  if (!prev || prev.untilMs > Date.now()) return busy(s, id, prev);
  return afterEarlier(journal, s, prev, mine, by.force === true);
}

function busy(s: MoveSteps, id: string, prev: JournalRow | null): ActionOutcome {
  const which = prev ? ` (${describe(s, prev)}, running until ${new Date(prev.untilMs).toISOString()} at most)` : '';
  return outcome(
    id,
    'conflict',
    `not moved: it is being moved by another operation${which}; nothing was sent. Look again when that one has finished.`,
  );
}

/** No earlier move of the id: read, enqueue, remove, each step recorded. */
async function fresh(journal: MoveJournal, s: MoveSteps, row: JournalRow): Promise<ActionOutcome> {
  let call: TaskCall | null;
  try {
    call = await s.read(row.id);
  } catch (e) {
    await quietly('clear', journal.clear(row));
    const err = toConsoleError(e);
    return outcome(row.id, err.code === 'InvalidInput' ? 'invalid' : 'error', `not moved: ${err.message}`);
  }
  if (!call) {
    await quietly('clear', journal.clear(row));
    return outcome(row.id, 'missing', `not moved: not a dead letter on ${s.from.name} (moved, replayed or discarded already?)`);
  }
  return deliver(journal, s, row, call);
}

/** Steps (1) and (2) under `row`; the row goes once the letter has left the source. */
async function deliver(journal: MoveJournal, s: MoveSteps, row: JournalRow, call: TaskCall): Promise<ActionOutcome> {
  const id = row.id;
  let sent: { outcome: 'ok' | 'already'; message: string; taskId?: string };
  try {
    sent = await s.enqueue(call);
  } catch (e) {
    const err = toConsoleError(e);
    // Refused before anything was written there (a value the target can't carry, another
    // console sending this id right now): nothing to remember.
    if (err.code === 'InvalidInput' || err.code === 'Conflict') {
      await quietly('clear', journal.clear(row));
      return outcome(id, err.code === 'InvalidInput' ? 'invalid' : 'conflict', `not moved: ${err.message}`);
    }
    await quietly('end', journal.end(row, `its enqueue on ${s.to.name} failed (${err.message}), so it may or may not have arrived there`));
    return outcome(
      id,
      'error',
      `not moved: the enqueue on ${s.to.name} failed (${err.message}); it may or may not have arrived there, so the move journal keeps a record and moving it again checks first`,
    );
  }
  return removeHere(
    journal,
    s,
    row,
    sent.outcome === 'ok' ? `enqueued on ${s.to.name} (${sent.message})${dropped(s, call)}` : `already on ${s.to.name} (${sent.message})`,
    sent.outcome,
    sent.taskId,
  );
}

/** What the target declares it could not keep of `call`, in its words (empty: nothing). */
const dropped = (s: MoveSteps, call: TaskCall) =>
  call.ignoreResult === true && s.to.drops?.ignoreResult
    ? ` without its ignore_result (${s.to.drops.ignoreResult}), so the target may store its result`
    : '';

/** Step (2) once the task is on the target (`on` says how it got there). */
async function removeHere(
  journal: MoveJournal,
  s: MoveSteps,
  row: JournalRow,
  on: string,
  code: 'ok' | 'already',
  taskId?: string,
): Promise<ActionOutcome> {
  const id = row.id;
  let removed: ActionOutcome;
  try {
    removed = await s.remove(id);
  } catch (e) {
    removed = outcome(id, 'error', errText(e));
  }
  if (removed.outcome === 'ok') {
    await quietly('clear', journal.clear(row));
    const left = s.from.marks ? `on ${s.from.name}: ${removed.message}` : `removed from ${s.from.name}`;
    return outcome(id, code, `${on}; ${left}`, taskId ? { taskId } : {});
  }
  if (removed.outcome === 'missing') {
    await quietly('clear', journal.clear(row));
    return outcome(
      id,
      'conflict',
      `${on}, but the letter had already left ${s.from.name} (replayed or discarded meanwhile?): check that it runs once`,
    );
  }
  // The task is on the target; the letter and the row stay: moving it again finds both.
  await quietly('end', journal.end(row, `it reached the target (${on}) but removing it from ${s.from.name} failed (${removed.message})`));
  return outcome(id, 'error', `${on}, but removing it from ${s.from.name} failed (${removed.message}): move it again to remove it`);
}

/** A row of an earlier move that stopped (crashed, or failed a step): nothing is sent twice. */
async function afterEarlier(
  journal: MoveJournal,
  s: MoveSteps,
  prev: JournalRow,
  mine: JournalRow,
  force: boolean,
): Promise<ActionOutcome> {
  const id = prev.id;
  const earlier = `${describe(s, prev)} did not finish (${prev.note ?? 'the console running it stopped'})`;
  let call: TaskCall | null;
  try {
    call = await s.read(id);
  } catch (e) {
    return outcome(
      id,
      'error',
      `not moved: ${earlier}, and the letter could not be read on ${s.from.name} (${errText(e)}); nothing was sent`,
    );
  }
  if (!call) {
    // The letter left: that move finished but for deleting its row (or it was replayed or discarded here).
    await quietly('clear', journal.clear(prev));
    return outcome(
      id,
      'missing',
      `not moved: not a dead letter on ${s.from.name} any more; ${earlier}, so it is probably on ${s.nameOf(prev.target)} (or it was replayed or discarded here)`,
    );
  }
  let there: string | null = null;
  // A keyed target (same key, same task) is simply sent again: it answers with the first task.
  const resend = !force && !!s.to.keyed && prev.target === s.to.id;
  if (!force && !resend) {
    try {
      there = await s.seen(prev.target, id);
    } catch (e) {
      return outcome(
        id,
        'error',
        `not moved: ${earlier}, and ${s.nameOf(prev.target)} could not be asked whether it has the task (${errText(e)}); nothing was sent`,
      );
    }
    if (!there) return mayHaveRun(s, prev, id);
  }
  // Only one of two retries (or a retry and a "move anyway") goes on.
  const next = force ? mine : { ...mine, target: prev.target };
  if (!(await journal.takeOver(prev, next).catch(() => false))) return busy(s, id, await journal.get(prev.source, id).catch(() => null));
  if (there)
    return removeHere(journal, s, next, `already on ${s.nameOf(prev.target)} (${there}), sent there by ${describe(s, prev)}`, 'already');
  const r = await deliver(journal, s, next, call);
  if (resend) return { ...r, message: `sent again after ${describe(s, prev)} that did not finish (${s.to.keyed}): ${r.message}` };
  return { ...r, message: `moved anyway over ${describe(s, prev)} that did not finish: ${r.message}` };
}

function mayHaveRun(s: MoveSteps, prev: JournalRow, id: string): ActionOutcome {
  const target = s.nameOf(prev.target);
  return outcome(
    id,
    'conflict',
    `not moved: a previous move at ${prev.at} by ${prev.who} may have delivered it to ${target}, and it may have run there: ${target} does not report it, ` +
      `but a task that ran without storing a result leaves no trace (that move stopped: ${prev.note ?? 'the console running it stopped'}). ` +
      `Nothing was sent. Check ${target} (the task's effects, its worker logs): if it ran, discard the letter here; to run it here instead, replay it here; ` +
      `if it did not run, move it again with "move anyway" (force).`,
    { forcible: true },
  );
}
