// The way back: a named-payload dead letter (a QueueFlow job that died) as the positional call
// it was before a migration, through the call mapping whose target task is the job's task name
// (./convert.ts `payloadToCall`). Pure and client-safe; the move (lib/brokers/move.ts) and its
// tests use the same result.
import type { TaskCall, ValueLetter } from '@/lib/brokers/types';
import { payloadToCall, type Converted } from './convert';
import type { CallMapping, MovePreviewItem } from './schema';
import { pyRepr } from '@/lib/pyvalues/pyrepr';

/** The task id a letter's job gets on the target: its job id, so the same letter moved twice
 *  (a retry, another console) is the same task there and the target answers `already`. */
export const backId = (letter: Pick<ValueLetter, 'jobId'>) => letter.jobId;

/** The mapping (of those between the two brokers) whose target task is the letter's task name. */
export const mappingBack = (mappings: CallMapping[], task: string): CallMapping | null =>
  mappings.find((m) => (m.targetTask ?? m.task) === task) ?? null;

/**
 * `letter` as the call of the mapping's source task. The queue: the job's own when the mapping
 * keeps the letter's queue (it names none), else `routedQueue` (where the target routes that
 * task), else a problem under `queue`: the mapping sends every such job to one queue, so the
 * job's queue does not say which queue it came from.
 */
export function callOfLetter(m: CallMapping, letter: ValueLetter, routedQueue?: string | null): Converted<TaskCall> {
  const c = payloadToCall(m, letter.payload);
  const queue = m.queue === undefined ? letter.queue : routedQueue;
  if (!queue) {
    const problems = c.ok ? {} : c.problems;
    return {
      ok: false,
      problems: {
        ...problems,
        queue: `the mapping sends every ${m.task} to queue ${m.queue}, so the job's queue does not say where ${m.task} ran before, and the target has not seen ${m.task} in any queue`,
      },
    };
  }
  if (!c.ok) return c;
  const call: TaskCall = {
    id: backId(letter),
    task: m.task,
    queue,
    args: c.value.args,
    kwargs: c.value.kwargs,
    priority: letter.priority,
    expiresMs: null,
    etaMs: null,
    ignoreResult: null,
    rootId: null,
    parentId: null,
  };
  return { ok: true, value: call, notes: c.notes };
}

/** What a QueueFlow-style job cannot carry to a positional call (each in words). */
export const BACK_NOT_CARRIED = [
  "the job's retry settings and attempts (max retries, backoff): the task retries as its own code says there",
];

/** The letter as the preview shows it (its payload as the JSON it is). */
export const letterView = (l: ValueLetter) => ({ jobId: l.jobId, task: l.task, queue: l.queue, payload: l.payload, priority: l.priority });

/** A preview item of the way back: the letter beside the call `r` made of it (nothing sent). */
export function backPreview(
  letter: ValueLetter,
  r: Converted<TaskCall>,
): Pick<MovePreviewItem, 'letter' | 'call' | 'problems' | 'notCarried' | 'notes'> {
  const shown = letterView(letter);
  if (!r.ok) return { letter: shown, call: null, problems: { ...r.problems }, notCarried: [], notes: [] };
  const c = r.value;
  return {
    letter: shown,
    call: { id: c.id, task: c.task, queue: c.queue, args: pyRepr(c.args), kwargs: pyRepr(c.kwargs), priority: c.priority },
    problems: {},
    notCarried: BACK_NOT_CARRIED,
    notes: r.notes,
  };
}
