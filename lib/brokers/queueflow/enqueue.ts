import 'server-only';
import { z } from 'zod';
import { given, wholeNumber } from '@/lib/brokers/form-values';
import { parseInput } from '@/lib/brokers/parse-input';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { EnqueueDecl, EnqueuePreview, EnqueueRequest, EnqueueResult } from '@/lib/brokers/schema';
import type { QfClient } from './client';
import { micros, parseWire, ZCreated, ZJob, type QfJob } from './wire';

const ZHealthTime = z.looseObject({ timestamp: z.string() });

// What QueueFlow's `POST /api/v1/jobs` takes, declared for the enqueue form and checked with our
// own schema: a payload object, when to run, its priority and retry settings, and an
// idempotency key (sent as the Idempotency-Key header). Bounds are QueueFlow 0.6.0's.

const int = wholeNumber;

const ZPayload = z.preprocess(
  (v) => {
    if (v === undefined || v === '' || v === null) return {};
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return Symbol('not JSON');
    }
  },
  z.record(z.string(), z.unknown(), { error: 'the payload must be a JSON object' }),
);

const ZRunAt = z.preprocess(
  given,
  z
    .string()
    .trim()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i,
      'run at must be an ISO 8601 time with an offset (Z or +hh:mm)',
    )
    .refine((v) => !Number.isNaN(Date.parse(v)), 'run at is not a real time')
    .optional(),
);

export const ZQueueflowEnqueueFields = z.strictObject({
  payload: ZPayload,
  run_at: ZRunAt,
  priority: int('priority', -2_147_483_648, 2_147_483_647),
  max_retries: int('max retries', 0, 1000),
  timeout: int('timeout', 1, 86_400),
  retry_backoff: z.preprocess(
    given,
    z.enum(['fixed', 'linear', 'exponential'], { error: 'retry backoff is fixed, linear or exponential' }).optional(),
  ),
  retry_delay_secs: int('retry delay', 0, 86_400 * 365),
  retry_max_delay_secs: int('retry max delay', 0, 86_400 * 365),
  jitter_factor: z.preprocess(
    given,
    z.coerce.number({ error: 'jitter must be a number' }).min(0, 'jitter is 0 to 1').max(1, 'jitter is 0 to 1').optional(),
  ),
  idempotency_key: z.preprocess(given, z.string().trim().min(1).max(255, 'at most 255 characters').optional()),
});
const KEYS = Object.keys(ZQueueflowEnqueueFields.shape);
const CONFIG_KEYS = [
  'priority',
  'max_retries',
  'timeout',
  'retry_backoff',
  'retry_delay_secs',
  'retry_max_delay_secs',
  'jitter_factor',
] as const;

export const QUEUEFLOW_ENQUEUE: EnqueueDecl = {
  does: 'QueueFlow creates one pending job (POST /api/v1/jobs); with an idempotency key it returns the earlier job of that key instead of a second one.',
  defaultQueue: 'default',
  fields: [
    { key: 'payload', kind: 'json-object', label: 'Payload (JSON object)', default: '{}', help: 'What the handler gets as job.payload.' },
    { key: 'run_at', kind: 'datetime', label: 'Run at', exclusive: 'When', schedules: true },
    { key: 'priority', kind: 'integer', label: 'Priority', default: '0', help: 'Higher is leased first.' },
    { key: 'max_retries', kind: 'integer', label: 'Max retries', min: 0, max: 1000, advanced: true, help: 'QueueFlow: 3 when empty.' },
    {
      key: 'timeout',
      kind: 'integer',
      label: 'Timeout (seconds)',
      min: 1,
      max: 86_400,
      advanced: true,
      help: 'QueueFlow: 300 when empty.',
    },
    {
      key: 'retry_backoff',
      kind: 'text',
      label: 'Retry backoff',
      placeholder: 'exponential',
      advanced: true,
      help: 'fixed, linear or exponential.',
    },
    { key: 'retry_delay_secs', kind: 'integer', label: 'Retry delay (seconds)', min: 0, advanced: true, help: 'QueueFlow: 60 when empty.' },
    { key: 'retry_max_delay_secs', kind: 'integer', label: 'Longest retry delay (seconds)', min: 0, advanced: true },
    { key: 'jitter_factor', kind: 'text', label: 'Jitter (0 to 1)', placeholder: '0.1', advanced: true },
    { key: 'idempotency_key', kind: 'text', label: 'Idempotency key', advanced: true, help: 'The same key again returns the earlier job.' },
  ],
};

export interface QfCreate {
  body: { task_name: string; payload: Record<string, unknown>; config: Record<string, unknown>; run_at?: string };
  idempotencyKey: string | null;
  scheduled: boolean;
}

/** The request QueueFlow gets; bad input is InvalidInput keyed by the form's field. */
export function buildCreate(req: EnqueueRequest, now = Date.now()): QfCreate {
  const stray = Object.keys(req.fields).find((k) => !KEYS.includes(k));
  if (stray !== undefined) {
    const message = `QueueFlow's jobs have no field "${stray.slice(0, 100)}" (they take ${KEYS.join(', ')})`;
    throw new ConsoleError('InvalidInput', message, { [stray]: message });
  }
  const f = parseInput(ZQueueflowEnqueueFields, req.fields);
  const config: Record<string, unknown> = { queue: req.queue ?? QUEUEFLOW_ENQUEUE.defaultQueue };
  for (const k of CONFIG_KEYS) if (f[k] !== undefined) config[k] = f[k];
  const runAt = f.run_at ? new Date(Date.parse(f.run_at)).toISOString() : undefined;
  return {
    body: { task_name: req.task, payload: f.payload, config, ...(runAt ? { run_at: runAt } : {}) },
    idempotencyKey: f.idempotency_key ?? null,
    scheduled: runAt !== undefined && Date.parse(runAt) > now,
  };
}

/** QueueFlow's names for what it refuses, as the form's fields. */
const FORM_FIELD: Record<string, string> = { task_name: 'task', timeout_secs: 'timeout', config: 'payload' };

function inForm(e: unknown): unknown {
  if (!isConsoleError(e) || e.code !== 'InvalidInput') return e;
  const [field, message] = Object.entries(e.fields ?? {})[0] ?? [];
  if (!field || !message) return e;
  const to = FORM_FIELD[field] ?? (KEYS.includes(field) || field === 'queue' ? field : null);
  return new ConsoleError('InvalidInput', e.message, to ? { [to]: message } : undefined);
}

/** QueueFlow's clock now (`/health`'s timestamp, from the server's own clock as `created_at` is). */
export async function serverNow(client: QfClient): Promise<bigint | null> {
  const health = ZHealthTime.safeParse(await client.get('/health'));
  return health.success ? micros(health.data.timestamp) : null;
}

/**
 * QueueFlow answers an idempotency key it has seen with 201 and the earlier job's id, as it
 * answers a new job: the job's `created_at` before the server's clock at the request tells
 * them apart (both come from the server's clock). Null when the key is new, or when it cannot
 * be told (then the write is reported as made, as QueueFlow does).
 */
export async function earlierJob(client: QfClient, id: string, before: bigint | null): Promise<QfJob | null> {
  if (before === null) return null;
  // (not jobs.ts's readJob: the model imports this file, and jobs.ts the model)
  const job = await client.get(`/api/v1/jobs/${encodeURIComponent(id)}`).then(
    (raw) => parseWire(ZJob, raw, 'a job'),
    () => null,
  );
  const at = job ? micros(job.created_at) : null;
  return job && at !== null && at < before ? job : null;
}

export async function createJob(client: QfClient, brokerId: string, req: EnqueueRequest): Promise<EnqueueResult> {
  const c = buildCreate(req);
  const before = c.idempotencyKey ? await serverNow(client).catch(() => null) : null;
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
  const earlier = c.idempotencyKey ? await earlierJob(client, created.job_id, before) : null;
  if (earlier) {
    const message = `already exists as job ${earlier.id} (idempotency key "${c.idempotencyKey}", created ${earlier.created_at})`;
    return {
      brokerId,
      id: earlier.id,
      queue: earlier.queue_name,
      task: earlier.task_name,
      state: Date.parse(earlier.scheduled_at ?? '') > Date.now() ? 'scheduled' : 'pending',
      payload: JSON.stringify(c.body),
      outcome: { id: earlier.id, outcome: 'already', message, taskId: earlier.id },
    };
  }
  const queue = String(c.body.config.queue);
  return {
    brokerId,
    id: created.job_id,
    queue,
    task: req.task,
    state: c.scheduled ? 'scheduled' : 'pending',
    payload: JSON.stringify(c.body),
  };
}

export function previewCreate(brokerId: string, req: EnqueueRequest): EnqueuePreview {
  const c = buildCreate(req);
  return {
    brokerId,
    id: '(QueueFlow assigns the job id)',
    queue: String(c.body.config.queue),
    task: req.task,
    state: c.scheduled ? 'scheduled' : 'pending',
    payload: JSON.stringify(c.body, null, 2),
    ...(c.idempotencyKey ? { headers: [{ name: 'Idempotency-Key', value: c.idempotencyKey }] } : {}),
    preview: true,
    // QueueFlow has no command line; its Python client is the way from a shell.
    command: null,
  };
}
