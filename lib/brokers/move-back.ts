import 'server-only';
import { ConsoleError } from './errors';
import { getMappingStore } from './mapping/store';
import { problemsText } from './mapping/job';
import { backId, callOfLetter, mappingBack } from './mapping/reverse';
import type { Converted } from './mapping/convert';
import type { MoveSteps } from './move-one';
import type { BrokerAdapter, TaskCall, ValueLetter } from './types';

/**
 * The way back between call models (lib/brokers/move.ts): a named-payload dead letter read as
 * the positional call of the mapping whose target task is its name, enqueued on the target
 * under its job's id (`backId`), so a move retried after a crash, or sent by two consoles, finds
 * the task there (`already`). The journal keys the move by the letter's id; `seen` asks the
 * target for the job's id.
 */
export function backSteps(
  sides: { from: { id: string; name: string }; to: { id: string; name: string } },
  from: Required<Pick<BrokerAdapter, 'exportValue'>>,
  to: Required<Pick<BrokerAdapter, 'importCall'>> & Pick<BrokerAdapter, 'taskQueues'>,
  base: Pick<MoveSteps, 'seen'>,
): Pick<MoveSteps, 'read' | 'enqueue' | 'seen'> {
  return {
    async read(id) {
      const letter = await from.exportValue(id);
      return letter ? callBack(sides, letter, to) : null;
    },
    async enqueue(call: TaskCall) {
      const sent = await to.importCall(call);
      return { ...sent, message: sent.outcome === 'ok' ? `as task ${call.id}: ${sent.message}` : sent.message, taskId: call.id };
    },
    async seen(brokerId, id) {
      const letter = await from.exportValue(id);
      return letter ? base.seen(brokerId, backId(letter)) : null;
    },
  };
}

type Sides = { from: { id: string; name: string }; to: { id: string; name: string } };

/** `letter` as the call of its mapping back; InvalidInput (nothing sent) without one. */
export async function callBack(s: Sides, letter: ValueLetter, to: Pick<BrokerAdapter, 'taskQueues'>): Promise<TaskCall> {
  const r = await convertBack(s, letter, to);
  if (r.ok) return r.value;
  if (!r.mapped)
    throw new ConsoleError(
      'InvalidInput',
      `${s.from.name} and ${s.to.name} take different call models and no call mapping from ${s.to.name} to ${s.from.name} has target task "${letter.task.slice(0, 200)}": add one first`,
      r.problems,
    );
  throw new ConsoleError('InvalidInput', `its call mapping cannot convert it (${problemsText(r.problems)})`, r.problems);
}

/** `letter` through the mapping whose target task is its name (the move and its preview). */
export async function convertBack(
  s: Sides,
  letter: ValueLetter,
  to: Pick<BrokerAdapter, 'taskQueues'>,
): Promise<Converted<TaskCall> & { mapped: boolean }> {
  // Mappings are stored the way they were made: from the positional broker to this one.
  const m = mappingBack(
    (await (await getMappingStore()).list({ source: s.to.id, target: s.from.id })).map((x) => x.mapping),
    letter.task,
  );
  if (!m)
    return {
      ok: false,
      mapped: false,
      problems: { task: `no call mapping from ${s.to.name} to ${s.from.name} whose target task is this name: add one first` },
    };
  const routed = m.queue === undefined ? null : ((await to.taskQueues?.().catch(() => null))?.[m.task]?.[0] ?? null);
  return { ...callOfLetter(m, letter, routed), mapped: true };
}
