import 'server-only';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { EnqueuePreview, EnqueueRequest, EnqueueResult } from '@/lib/brokers/schema';
import type { QfClient } from './client';
import { parseWire, ZCreated } from './wire';

// The console's enqueue request (potatoq's form: args/kwargs/headers as JSON text) mapped onto
// QueueFlow's `POST /api/v1/jobs`. Kept in this one file: when the form's fields become
// adapter-declared, only this mapping changes.
//
//   task -> task_name; queue, priority -> config; kwargs (an object) -> payload; args must be
//   empty (QueueFlow jobs take one payload object); countdown / eta -> run_at; expires is
//   refused (QueueFlow jobs do not expire); headers (an object) carry QueueFlow's own settings:
//   idempotency_key (sent as the Idempotency-Key header), max_retries, timeout, retry_backoff,
//   retry_delay_secs, retry_max_delay_secs, jitter_factor.

const CONFIG_KEYS = ['max_retries', 'timeout', 'retry_backoff', 'retry_delay_secs', 'retry_max_delay_secs', 'jitter_factor'] as const;
const HEADER_KEYS = ['idempotency_key', ...CONFIG_KEYS];

export interface QfCreate {
  body: { task_name: string; payload: Record<string, unknown>; config: Record<string, unknown>; run_at?: string };
  idempotencyKey: string | null;
  scheduled: boolean;
}

const bad = (field: string, message: string) => new ConsoleError('InvalidInput', message, { [field]: message });

function jsonOf(field: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw bad(field, `${field} is not valid JSON (${(e as Error).message})`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function runAt(req: EnqueueRequest, now: number): string | undefined {
  if (req.countdown !== undefined) return req.countdown > 0 ? new Date(now + req.countdown * 1000).toISOString() : undefined;
  if (req.eta === undefined) return undefined;
  const ms = /^\d+(\.\d+)?$/.test(req.eta) ? Number(req.eta) * 1000 : Date.parse(req.eta);
  if (!Number.isFinite(ms) || !/\d/.test(req.eta)) throw bad('eta', 'eta must be an ISO 8601 date-time with an offset, or Unix seconds');
  if (!/^\d+(\.\d+)?$/.test(req.eta) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(req.eta))
    throw bad('eta', 'eta needs a time zone offset (Z or +hh:mm): QueueFlow takes RFC 3339 times');
  return new Date(ms).toISOString();
}

/** The request QueueFlow gets; bad input is InvalidInput naming the console's field. */
export function buildCreate(req: EnqueueRequest, now = Date.now()): QfCreate {
  const args = jsonOf('args', req.args);
  if (!Array.isArray(args)) throw bad('args', 'args must be a JSON list');
  if (args.length) throw bad('args', 'QueueFlow jobs take no positional arguments: put the values into kwargs (the payload object)');
  const payload = jsonOf('kwargs', req.kwargs);
  if (!isObject(payload)) throw bad('kwargs', 'kwargs must be a JSON object: it is the job payload');
  const headers = jsonOf('headers', req.headers);
  if (!isObject(headers)) throw bad('headers', 'headers must be a JSON object');
  const unknown = Object.keys(headers).filter((k) => !HEADER_KEYS.includes(k));
  if (unknown.length)
    throw bad('headers', `QueueFlow takes no header ${unknown.map((k) => `"${k}"`).join(', ')}; it knows ${HEADER_KEYS.join(', ')}`);
  if (req.expires !== undefined) throw bad('expires', 'QueueFlow jobs do not expire: leave expires empty');
  const key = headers.idempotency_key;
  if (key !== undefined && (typeof key !== 'string' || !key.trim() || key.length > 255))
    throw bad('headers', 'idempotency_key must be a non-empty string of at most 255 characters');
  const config: Record<string, unknown> = { queue: req.queue, priority: req.priority };
  for (const k of CONFIG_KEYS) if (headers[k] !== undefined) config[k] = headers[k];
  const at = runAt(req, now);
  return {
    body: { task_name: req.task, payload, config, ...(at ? { run_at: at } : {}) },
    idempotencyKey: typeof key === 'string' ? key : null,
    scheduled: at !== undefined && Date.parse(at) > now,
  };
}

/** QueueFlow's names for what it refuses, as the console form's fields. */
const FORM_FIELD: Record<string, string> = {
  task_name: 'task',
  payload: 'kwargs',
  run_at: 'eta',
  queue: 'queue',
  priority: 'priority',
  config: 'headers',
  ...Object.fromEntries(CONFIG_KEYS.map((k) => [k, 'headers'])),
  timeout_secs: 'headers',
};

function inForm(e: unknown): unknown {
  if (!isConsoleError(e) || e.code !== 'InvalidInput') return e;
  const [field, message] = Object.entries(e.fields ?? {})[0] ?? [];
  const to = field ? (FORM_FIELD[field] ?? null) : null;
  return new ConsoleError('InvalidInput', e.message, to && message ? { [to]: message } : undefined);
}

export async function createJob(client: QfClient, brokerId: string, req: EnqueueRequest): Promise<EnqueueResult> {
  const c = buildCreate(req);
  let created;
  try {
    created = parseWire(
      ZCreated,
      await client.post('/api/v1/jobs', c.body, c.idempotencyKey ? { 'idempotency-key': c.idempotencyKey } : undefined),
      'a new job',
    );
  } catch (e) {
    throw inForm(e);
  }
  return {
    brokerId,
    id: created.job_id,
    queue: req.queue,
    task: req.task,
    state: c.scheduled ? 'scheduled' : 'ready',
    payload: JSON.stringify(c.body),
  };
}

export function previewCreate(brokerId: string, req: EnqueueRequest): EnqueuePreview {
  const c = buildCreate(req);
  return {
    brokerId,
    id: '(QueueFlow assigns the job id)',
    queue: req.queue,
    task: req.task,
    state: c.scheduled ? 'scheduled' : 'ready',
    payload: JSON.stringify(c.body, null, 2),
    preview: true,
    // QueueFlow has no command line; its Python client is the way from a shell.
    command: null,
  };
}
