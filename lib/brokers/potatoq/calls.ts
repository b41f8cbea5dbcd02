import 'server-only';
import { buildMessage, decodePayload, decodeTags, dumpsPy, parseJson, type BuildMessageInput, type BuiltMessage } from '@/lib/potatoq';
import type { PyVal } from '@/lib/potatoq/pyval';
import { ConsoleError } from '@/lib/brokers/errors';
import type { CallsDecl, DeadDetail } from '@/lib/brokers/schema';
import type { TaskCall } from '@/lib/brokers/types';
import { asInvalidInput } from './records';

// potatoq's side of moving dead letters between brokers of Celery's call model (task name,
// args, kwargs, queue): a letter's message read as a call, a call written as the message
// `potatoq call` would write under the call's own id. Shared by every potatoq store.

/** The call model potatoq shares with Celery (Celery's own declaration names the same). */
export const CELERY_COMPATIBLE = 'celery-compatible';

const EXPORT = {
  does: "The letter's task name, id, queue, args and kwargs (tagged values as their Python types), priority and expires are read from its message; its eta is dropped, as a replay drops it.",
};

/** potatoq stores that can tell whether an id is already theirs (SQLite, PostgreSQL, Redis). */
export const POTATOQ_CALLS: CallsDecl = {
  model: CELERY_COMPATIBLE,
  export: EXPORT,
  import: {
    does: "Writes the message `potatoq call` would write for the same task, args and kwargs, under the letter's own id (so results and revocations still match), ready now; nothing is written when a task with that id is already waiting, running, dead or finished here.",
  },
};

/** potatoq on RabbitMQ: its letters can leave, nothing can arrive safely. */
export const POTATOQ_RABBITMQ_CALLS: CallsDecl = {
  model: CELERY_COMPATIBLE,
  export: EXPORT,
  import: {
    why: 'RabbitMQ cannot look a queued message up by its id, so a move retried after a crash could not tell that the task is already here and would run it twice',
  },
};

const get = (v: PyVal, key: string): PyVal | undefined => (v.k === 'dict' ? v.entries.find((e) => e[0] === key)?.[1] : undefined);
const invalid = (message: string) => new ConsoleError('InvalidInput', message);
const seconds = (v: PyVal | undefined): number | null =>
  v?.k === 'float' ? v.v : v?.k === 'int' ? Number(v.text) : v?.k === 'none' || v === undefined ? null : NaN;

/** A dead letter's message as a call; InvalidInput with why when it isn't one potatoq wrote
 *  (another system's message, a truncated read, callbacks the other system can't run). */
export function callOfLetter(d: DeadDetail): TaskCall {
  if (d.rawTruncated) throw invalid(`the message is ${d.rawSize} bytes, more than the console reads whole; replay it here instead`);
  const decoded = decodePayload(d.raw, { maxDepth: 1, maxItems: 1, maxString: 1 });
  if (decoded.kind === 'foreign') throw invalid(`not a potatoq message (${decoded.reason})`);
  const m = decodeTags(parseJson(d.raw)).value;
  const task = get(m, 'task');
  const args = get(m, 'args') ?? { k: 'list', items: [] };
  const kwargs = get(m, 'kwargs') ?? { k: 'dict', entries: [] };
  if (task?.k !== 'str' || !task.v) throw invalid('the message has no task name');
  if (args.k !== 'list' || kwargs.k !== 'dict') throw invalid('the message has no list of args or dict of kwargs');
  for (const key of ['link', 'link_error'] as const) {
    const cb = get(m, key);
    if (cb && cb.k === 'list' && cb.items.length)
      throw invalid(`the message has ${key} callbacks, which are potatoq signatures another system cannot run`);
  }
  const queue = get(m, 'queue');
  const priority = get(m, 'priority');
  const expires = seconds(get(m, 'expires'));
  return {
    id: d.id,
    task: task.v,
    queue: queue?.k === 'str' ? queue.v : (d.queue ?? 'default'),
    args,
    kwargs,
    priority: priority?.k === 'int' ? Number(priority.text) : null,
    expiresMs: expires === null || Number.isNaN(expires) ? null : Math.round(expires * 1000),
  };
}

/** What `buildMessage` takes for `call`: its id, ready now. */
export function buildInputOfCall(call: TaskCall): BuildMessageInput {
  return {
    task: call.task,
    queue: call.queue,
    id: call.id,
    args: dumpsPy(call.args),
    kwargs: dumpsPy(call.kwargs),
    priority: Math.max(-32768, Math.min(32767, call.priority ?? 0)),
    // A number would be seconds from now: the instant goes as ISO text.
    ...(call.expiresMs !== null ? { expires: new Date(call.expiresMs).toISOString() } : {}),
  };
}

/** The message `potatoq call` writes for `call`, under its id, ready now. */
export function messageOfCall(call: TaskCall, now = Date.now() / 1000): BuiltMessage {
  return asInvalidInput(() => buildMessage({ ...buildInputOfCall(call), now }));
}

/** Where a task with this id already is on a potatoq store, in words; null when nowhere. */
export function alreadyHere(where: { job?: number | string | null; dead?: boolean; result?: string | null }): string | null {
  if (where.job !== undefined && where.job !== null)
    return `a task with this id is already ${where.job === 2 ? 'running' : 'waiting'} here`;
  if (where.dead) return 'a task with this id is already a dead letter here (it ran and failed)';
  if (where.result) return `a task with this id already finished here (${where.result})`;
  return null;
}
