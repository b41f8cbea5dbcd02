import 'server-only';
import { EditError, typedToPy } from '@/lib/pyvalues/typed-edit';
import { checkEditKwargNames } from '@/lib/brokers/edit-kwargs';
import { isoDate, isoTime, uuidText, type PyVal } from '@/lib/pyvalues/pyval';
import { decimalToString } from '@/lib/pyvalues/pydecimal';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ReplayEditInput } from '@/lib/brokers/schema-edit';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { QUEUEFLOW_MODEL } from './model';
import type { QfJob } from './wire';

// The create request an edited replay sends QueueFlow: the letter's job with the edits applied.
// A payload is a JSON object: the kwargs are its keys.

/** The edited job's Idempotency-Key: a retry (or a recovery finishing the edit) gets the same job. */
export const editKey = (letterId: string) => `console-edit-dlq-${letterId}`;

export interface QfCreate {
  task_name: string;
  payload: unknown;
  config: Record<string, unknown>;
}

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

/** `keys` in the order `original` (the letter's payload) has them, new keys after in their own
 *  order: an edit of one value leaves the payload's shape, and its diff, alone. */
function inOriginalOrder(original: unknown, keys: string[]): string[] {
  const was = original !== null && typeof original === 'object' && !Array.isArray(original) ? Object.keys(original) : [];
  const now = new Set(keys);
  return [...new Set([...was.filter((k) => now.has(k)), ...keys])];
}

/** The create request a plain replay amounts to, and the edited one; bad edits name their field. */
export function editedCreate(job: QfJob, edit: ReplayEditInput): { before: QfCreate; after: QfCreate } {
  const config: Record<string, unknown> = { queue: job.queue_name };
  for (const [stored, req] of CONFIG_KEYS) if (job.config?.[stored] !== undefined) config[req] = job.config[stored];
  const before = { task_name: job.task_name, payload: job.payload ?? {}, config };
  if (edit.args?.length) throw invalid('args', QUEUEFLOW_MODEL.actions.replayEdited!.noArgs!);
  const after = { ...before, config: { ...config } };
  if (edit.kwargs) {
    checkEditKwargNames(edit.kwargs);
    const edited = new Map(edit.kwargs.map(([k, v]) => [k, jsonOf(v, `kwargs.${k}`)]));
    after.payload = Object.fromEntries(inOriginalOrder(before.payload, [...edited.keys()]).map((k) => [k, edited.get(k)]));
  }
  if (edit.queue !== undefined) {
    const q = edit.queue.trim();
    if (!q) throw invalid('queue', 'must not be empty');
    after.config.queue = q;
  }
  if (edit.priority !== undefined) after.config.priority = edit.priority;
  return { before, after };
}
