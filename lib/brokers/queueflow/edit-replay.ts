import 'server-only';
import { checkKwargNames, EditError, typedToPy } from '@/lib/potatoq';
import { isoDate, isoTime, uuidText, type PyVal } from '@/lib/potatoq/pyval';
import { decimalToString } from '@/lib/potatoq/pydecimal';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import type { TypedValue } from '@/lib/brokers/typed-value';
import type { QfClient } from './client';
import { readLetter } from './dead';
import { readJob } from './jobs';
import { QUEUEFLOW_MODEL } from './model';
import { parseWire, ZCreated, ZQueues, type QfJob } from './wire';

// Replay with edits on QueueFlow. Its replay (`POST /dlq/{id}/replay`) copies the original job and
// takes no changes, and it is the only way to mark a letter replayed. So: the letter's queue is
// paused (its claim skips paused queues), the letter replayed (once, in QueueFlow's transaction),
// the edited job created (Idempotency-Key per letter), the unedited copy cancelled while no
// worker can lease it, and the queue resumed. A payload is a JSON object: the kwargs are its keys.

const WORKERS = "QueueFlow's workers";
const invalid = (field: string, why: string) => new ConsoleError('InvalidInput', `${field}: ${why}`, { [field]: why });

/** The job settings a create request takes, from a job's stored config (`timeout_secs` is `timeout` there). */
const CONFIG_KEYS: Array<[string, string]> = [
  ['priority', 'priority'],
  ['max_retries', 'max_retries'],
  ['timeout_secs', 'timeout'],
  ['retry_backoff', 'retry_backoff'],
  ['retry_delay_secs', 'retry_delay_secs'],
  ['retry_max_delay_secs', 'retry_max_delay_secs'],
  ['jitter_factor', 'jitter_factor'],
];

/** A Python value as the JSON QueueFlow's workers get: JSON has no dates, so they are ISO 8601 text. */
function toJson(v: PyVal, field: string): unknown {
  switch (v.k) {
    case 'none':
      return null;
    case 'bool':
      return v.v;
    case 'int': {
      const n = Number(v.text);
      if (!Number.isSafeInteger(n)) throw invalid(field, 'is too large for a JSON number QueueFlow keeps exactly');
      return n;
    }
    case 'float':
      if (!Number.isFinite(v.v)) throw invalid(field, 'JSON has no NaN or Infinity');
      return v.v;
    case 'str':
      return v.v;
    case 'list':
      return v.items.map((x, i) => toJson(x, `${field}[${i}]`));
    case 'dict':
      return Object.fromEntries(v.entries.map(([k, x]) => [k, toJson(x, `${field}.${k}`)]));
    case 'datetime':
      return `${isoDate(v.date)}T${isoTime(v.time)}`;
    case 'date':
      return isoDate(v.date);
    case 'time':
      return isoTime(v.time);
    case 'uuid':
      return uuidText(v.hex);
    case 'decimal':
      return decimalToString(v.dec);
    case 'bytes':
    case 'set':
    case 'timedelta':
      throw invalid(field, `QueueFlow's payload is JSON, which has no ${v.k}`);
    default: {
      const never: never = v;
      return never;
    }
  }
}

function jsonOf(v: TypedValue, field: string): unknown {
  try {
    return toJson(typedToPy(v, field, WORKERS), field);
  } catch (e) {
    if (e instanceof EditError) throw new ConsoleError('InvalidInput', e.message, { [e.field]: e.message });
    throw e;
  }
}

/** The create request a plain replay amounts to, and the edited one; bad edits name their field. */
export function editedCreate(job: QfJob, edit: ReplayEditInput) {
  const config: Record<string, unknown> = { queue: job.queue_name };
  for (const [stored, req] of CONFIG_KEYS) if (job.config?.[stored] !== undefined) config[req] = job.config[stored];
  const before = { task_name: job.task_name, payload: job.payload ?? {}, config };
  if (edit.args?.length) throw invalid('args', QUEUEFLOW_MODEL.actions.replayEdited!.noArgs!);
  const after = { ...before, config: { ...config } };
  if (edit.kwargs) {
    try {
      checkKwargNames(edit.kwargs);
    } catch (e) {
      if (e instanceof EditError) throw invalid(e.field, e.message.slice(e.field.length + 2));
      throw e;
    }
    after.payload = Object.fromEntries(edit.kwargs.map(([k, v]) => [k, jsonOf(v, `kwargs.${k}`)]));
  }
  if (edit.queue !== undefined) {
    const q = edit.queue.trim();
    if (!q) throw invalid('queue', 'must not be empty');
    after.config.queue = q;
  }
  if (edit.priority !== undefined) after.config.priority = edit.priority;
  return { before, after };
}

async function letterAndJob(client: QfClient, id: string) {
  const letter = await readLetter(client, id);
  if (!letter) throw new ConsoleError('NotFound', `QueueFlow has no dead letter ${id} (for this tenant)`);
  if (letter.replay_job_id) throw new ConsoleError('NotFound', `dead letter ${id} was already replayed as job ${letter.replay_job_id}`);
  const job = await readJob(client, letter.job_id);
  if (!job) throw new ConsoleError('NotFound', `QueueFlow no longer has the job of dead letter ${id} (its retention removed it)`);
  return { letter, job };
}

export async function previewEditedQf(client: QfClient, brokerId: string, id: string, edit: ReplayEditInput): Promise<EditPreview> {
  const { job } = await letterAndJob(client, id);
  const { before, after } = editedCreate(job, edit);
  const text = (x: unknown) => JSON.stringify(x, null, 2);
  return {
    brokerId,
    id,
    before: text(before),
    after: text(after),
    newId: '(QueueFlow assigns the new job id)',
    sameId: false,
    does: QUEUEFLOW_MODEL.actions.replayEdited!.does,
  };
}

const post = (client: QfClient, route: string, body: unknown, headers?: Record<string, string>) => client.post(route, body, headers);
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

// One edited replay at a time per queue in this process: a second one on the same queue would see
// it paused by the first ("was paused before", so it would not resume it) while the first resumed
// it under the second's unedited copy. On globalThis, because Next bundles route handlers and
// server actions as separate module instances.
const LOCKS = Symbol.for('potatoq.console.queueflowEditLocks');
type Global = typeof globalThis & { [LOCKS]?: Map<string, Promise<void>> };

async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const locks = ((globalThis as Global)[LOCKS] ??= new Map());
  const before = locks.get(key) ?? Promise.resolve();
  const run = before.then(fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  locks.set(key, tail);
  try {
    return await run;
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}

export async function replayEditedQf(client: QfClient, brokerId: string, id: string, edit: ReplayEditInput): Promise<EditReplayResult> {
  const first = await letterAndJob(client, id);
  return oneAtATime(`${brokerId}\u0000${first.job.queue_name}`, () => replayEditedLocked(client, brokerId, id, edit));
}

async function replayEditedLocked(client: QfClient, brokerId: string, id: string, edit: ReplayEditInput): Promise<EditReplayResult> {
  const preview = await previewEditedQf(client, brokerId, id, edit); // bad edits and gone letters fail here
  const { job } = await letterAndJob(client, id);
  const { after } = editedCreate(job, edit);
  const queue = job.queue_name;
  const q = encodeURIComponent(queue);
  const stats = parseWire(ZQueues, await client.get('/api/v1/queues'), 'the queues');
  const wasPaused = stats.queues.some((x) => x.queue === queue && x.paused);
  const done = (outcome: ActionOutcome, newId = preview.newId): EditReplayResult => ({ ...preview, newId, outcome });
  if (!wasPaused) await post(client, `/api/v1/queues/${q}/pause`, {});
  let keepPaused = false;
  try {
    let copy: string;
    try {
      copy = parseWire(ZCreated, await post(client, `/api/v1/dlq/${id}/replay`, {}), 'a replay').job_id;
    } catch (e) {
      if (isConsoleError(e) && (e.code === 'Conflict' || e.code === 'NotFound'))
        throw new ConsoleError('NotFound', `dead letter ${id}: ${e.message}`);
      throw e;
    }
    let edited: string;
    try {
      edited = parseWire(
        ZCreated,
        await post(client, '/api/v1/jobs', after, { 'idempotency-key': `console-edit-dlq-${id}` }),
        'a new job',
      ).job_id;
    } catch (e) {
      // The letter is replayed (as it was): that copy stays and runs, so nothing is lost.
      return done(
        {
          id,
          outcome: 'error',
          message: `the edited job could not be created (${why(e)}); the letter was replayed unedited as job ${copy}`,
          taskId: copy,
        },
        copy,
      );
    }
    try {
      await post(client, `/api/v1/jobs/${encodeURIComponent(copy)}/cancel`, {});
    } catch (e) {
      // Both jobs exist: the queue stays paused so the unedited copy can't run as well.
      keepPaused = !wasPaused;
      return done(
        {
          id,
          outcome: 'error',
          message: `created the edited job ${edited}, but could not cancel the unedited copy ${copy} (${why(e)}): queue ${queue} stays paused; cancel job ${copy}, then resume it`,
          taskId: edited,
        },
        edited,
      );
    }
    const note = wasPaused ? ` (queue ${queue} was paused before and stays paused)` : '';
    return done(
      {
        id,
        outcome: 'ok',
        message: `replayed as job ${edited} with your edits; QueueFlow's unedited copy ${copy} was cancelled before any worker could take it${note}`,
        taskId: edited,
      },
      edited,
    );
  } finally {
    if (!wasPaused && !keepPaused) await post(client, `/api/v1/queues/${q}/resume`, {});
  }
}
