import 'server-only';
import { pyRepr } from '@/lib/pyvalues/pyrepr';
import { ConsoleError } from '@/lib/brokers/errors';
import type { TaskCall, ValueJob } from '@/lib/brokers/types';
import { jobOf, problemsText } from './job';
import { getMappingStore } from './store';

type Sent = { outcome: 'ok' | 'already'; message: string; taskId?: string };

export interface MappedSides {
  from: { id: string; name: string };
  to: { id: string; name: string };
}

/** The stored mapping's job for `call`: InvalidInput per letter (nothing sent) when there is no
 *  mapping for its task name or the mapping cannot convert it, the problems keyed by field. */
export async function mappedJob(s: MappedSides, call: TaskCall) {
  const stored = await (await getMappingStore()).get(s.from.id, s.to.id, call.task);
  if (!stored)
    throw new ConsoleError(
      'InvalidInput',
      `${s.from.name} and ${s.to.name} take different call models and task "${call.task.slice(0, 200)}" has no call mapping between them: add one first`,
      { task: 'no call mapping for this task name' },
    );
  const r = jobOf(stored.mapping, call);
  if (!r.ok) throw new ConsoleError('InvalidInput', `its call mapping cannot convert it (${problemsText(r.problems)})`, r.problems);
  return { ...r, mapping: stored.mapping };
}

/** A move's enqueue step between call models: the letter converted, then created on the target. */
export function mappedEnqueue(s: MappedSides, importValue: (job: ValueJob) => Promise<Sent>): (call: TaskCall) => Promise<Sent> {
  return async (call) => {
    const r = await mappedJob(s, call);
    const sent = await importValue(r.job);
    const extra = [...r.notes, ...r.notCarried.map((x) => `not carried: ${x}`)];
    return { ...sent, message: `${sent.message}${extra.length ? `; ${extra.join('; ')}` : ''}` };
  };
}

/** The source call as the preview shows it (Python's reprs). */
export const sourceView = (call: TaskCall) => ({
  id: call.id,
  task: call.task,
  queue: call.queue,
  args: pyRepr(call.args),
  kwargs: pyRepr(call.kwargs),
  priority: call.priority,
  eta: call.etaMs ? new Date(call.etaMs).toISOString() : null,
});
