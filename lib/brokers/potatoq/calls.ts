import 'server-only';
import { buildMessage, decodePayload, decodeTags, dumpsPy, type BuildMessageInput, type BuiltMessage } from '@/lib/potatoq';
import { parseJson } from '@/lib/pyvalues';
import type { PyVal } from '@/lib/pyvalues/pyval';
import { decimalKey } from '@/lib/pyvalues/pydecimal';
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
  does: "The letter's task name, id, queue, args and kwargs (tagged values as their Python types), priority, expires, ignore_result, root_id and parent_id are read from its message; its eta is dropped, as a replay drops it, and so are its retry count, per-call options and headers (the target runs it as a new call of its task).",
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
  waiting: {
    why: "RabbitMQ hands a queued message out only from the head of its queue (basic.get), and one taken that way goes back to the queue, where a worker may get it, if the console stops before the ack; potatoq's delayed tasks wait in per-delay queues the same way: the exact task cannot be taken in one step, so waiting tasks are not offered (dead letters are)",
  },
};

const get = (v: PyVal, key: string): PyVal | undefined => (v.k === 'dict' ? v.entries.find((e) => e[0] === key)?.[1] : undefined);
const invalid = (message: string) => new ConsoleError('InvalidInput', message);
const seconds = (v: PyVal | undefined): number | null =>
  v?.k === 'float' ? v.v : v?.k === 'int' ? Number(v.text) : v?.k === 'none' || v === undefined ? null : NaN;

const text = (v: PyVal | undefined): string | null => (v?.k === 'str' && v.v ? v.v : null);
/** Python's truth of a decoded field (absent: the dataclass default, False). */
function truthy(v: PyVal | undefined): boolean {
  if (v === undefined) return false;
  switch (v.k) {
    case 'none':
      return false;
    case 'bool':
      return v.v;
    case 'int':
      return v.text !== '0' && v.text !== '-0';
    case 'float':
      return v.v !== 0;
    case 'str':
      return v.v !== '';
    case 'list':
    case 'set':
      return v.items.length > 0;
    case 'dict':
      return v.entries.length > 0;
    case 'bytes':
      return v.data.length > 0;
    case 'timedelta':
      return v.us !== 0n;
    case 'decimal':
      return decimalKey(v.dec) !== 'n:0';
    default:
      return true;
  }
}

/** A dead letter's message as a call; InvalidInput with why when it isn't one potatoq wrote
 *  (another system's message, a truncated read, callbacks the other system can't run). */
export function callOfLetter(d: DeadDetail): TaskCall {
  if (d.rawTruncated) throw invalid(`the message is ${d.rawSize} bytes, more than the console reads whole; replay it here instead`);
  return callOfMessage(d.id, d.raw, d.queue);
}

/** What a waiting task's move does on a potatoq SQL store (lib/brokers/potatoq/sqlite/waiting.ts). */
export const POTATOQ_SQL_WAITING = {
  does: "A waiting task's message (ready or scheduled; its run time becomes the job's run_at) is deleted in one transaction that checks it is still the same waiting row and stores REVOKED for its id, as `potatoq revoke` does, marked as the console's move: a worker that claimed it first keeps it and nothing is sent; a running task is refused.",
};

/** What a waiting task's move does on potatoq's Redis broker (lib/brokers/potatoq/redis/waiting.ts). */
export const POTATOQ_REDIS_WAITING = {
  does: "A waiting task (ready, or delayed: its due time becomes the job's run_at) is removed in one script, which runs between workers' claims, after checking it is still the same waiting task with no worker's token: it leaves its queue's ready or delayed set, its hash is deleted and REVOKED is stored for its id, as potatoq's revoke does, marked as the console's move. A worker that claimed it first keeps it and nothing is sent; a running task is refused.",
};

/** A potatoq message (its JSON text) as a call; InvalidInput with why when it isn't one. */
export function callOfMessage(id: string, raw: string, fallbackQueue: string | null): TaskCall {
  const d = { id, raw, queue: fallbackQueue };
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
  const chord = get(m, 'chord');
  if (chord && chord.k !== 'none')
    throw invalid("the task is part of a chord whose counter and callback live on this broker's result backend; replay it here instead");
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
    // The worker stores no result where `not message.ignore_result` is false (Python truth).
    ignoreResult: truthy(get(m, 'ignore_result')),
    rootId: text(get(m, 'root_id')),
    parentId: text(get(m, 'parent_id')),
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
    rootId: call.rootId,
    parentId: call.parentId,
    ignoreResult: call.ignoreResult === true,
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
