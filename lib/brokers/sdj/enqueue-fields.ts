import 'server-only';
import { z } from 'zod';
import { given, wholeNumber } from '@/lib/brokers/form-values';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseInput } from '@/lib/brokers/parse-input';
import type { EnqueueDecl, EnqueueRequest } from '@/lib/brokers/schema';
import { UNIQUE_REFUSED, type SdjEnqueue } from './enqueue';

// What the raw-SQL contract's INSERT takes (docs/systems/simple-durable-jobs.md, "Writes" §1),
// declared for the enqueue form and checked here: the job's type (the form's task name), queue,
// args, priority, max_retries and run_at, or a delay that sets run_at. The args are a JSON object
// (the struct the handler unmarshals), written as the operator's own text so big integers stay
// exact. A unique key is declared so that asking for one is refused with the contract's reason
// under its own field, instead of being dropped.

const INT32 = 2_147_483_647;
/** Ten years, in seconds: the longest delay the form takes. */
const MAX_DELAY = 10 * 365 * 86_400;

const int = wholeNumber;

/** The args' JSON text (kept as written), checked to be one JSON object. */
const ZArgs = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? '{}' : v),
  z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'args must be a JSON object' }).transform((v, ctx) => {
    const text = typeof v === 'string' ? v.trim() : JSON.stringify(v);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'args is not valid JSON' });
      return z.NEVER;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: 'args must be a JSON object (the value the handler unmarshals)' });
      return z.NEVER;
    }
    return text;
  }),
);

const ZRunAt = z.preprocess(
  given,
  z
    .string({ error: 'run at must be an ISO 8601 time' })
    .trim()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i,
      'run at must be an ISO 8601 time with an offset (Z or +hh:mm)',
    )
    .refine((v) => !Number.isNaN(Date.parse(v)), 'run at is not a real time')
    .optional(),
);

export const ZSdjEnqueueFields = z.strictObject({
  args: ZArgs,
  priority: int('priority', -INT32 - 1, INT32),
  max_retries: int('max retries', 0, INT32),
  run_at: ZRunAt,
  delay: z.preprocess(
    given,
    z.coerce
      .number({ error: 'delay must be a number of seconds' })
      .refine(Number.isFinite, 'delay must be a number of seconds')
      .min(0, 'delay must be 0 or more seconds')
      .max(MAX_DELAY, `delay must be at most ${MAX_DELAY} seconds (ten years)`)
      .optional(),
  ),
  unique_key: z.preprocess(given, z.string().max(255, 'unique key is at most 255 characters').optional()),
});
export type SdjEnqueueFields = z.output<typeof ZSdjEnqueueFields>;
const KEYS = Object.keys(ZSdjEnqueueFields.shape);

/** The library's column default, and the raw-SQL contract's example (the Go API's is 2). */
export const DEFAULT_MAX_RETRIES = 3;

export const SDJ_ENQUEUE: EnqueueDecl = {
  does: "Inserts one pending job with the library's documented raw-SQL INSERT, exactly: only the columns it names, attempt 0, a new UUID, args as the JSON's bytes; the library fills the rest when a worker claims it. Unique jobs and deployments with a payload codec are refused, as the contract says.",
  defaultQueue: 'default',
  fields: [
    {
      key: 'args',
      kind: 'json-object',
      label: 'Args (JSON object)',
      default: '{}',
      help: 'What the handler unmarshals; stored as the UTF-8 bytes of this JSON, as written.',
    },
    { key: 'priority', kind: 'integer', label: 'Priority', default: '0', min: -INT32 - 1, max: INT32, help: 'Higher is claimed first.' },
    {
      key: 'max_retries',
      kind: 'integer',
      label: 'Max runs (max_retries)',
      default: String(DEFAULT_MAX_RETRIES),
      min: 0,
      max: INT32,
      help: 'The number of runs in all, the first included (the Go API uses 2).',
    },
    { key: 'run_at', kind: 'datetime', label: 'Run at', help: 'Stored as UTC in run_at.', exclusive: 'When', schedules: true },
    {
      key: 'delay',
      kind: 'duration',
      label: 'Delay (seconds)',
      placeholder: '60',
      min: 0,
      max: MAX_DELAY,
      help: 'run_at = now + delay, by the console clock.',
      exclusive: 'When',
      schedules: true,
    },
    {
      key: 'unique_key',
      kind: 'text',
      label: 'Unique key',
      advanced: true,
      help: 'Refused: the raw-SQL contract forbids unique jobs (jobs.Unique is Go-only).',
    },
  ],
};

const invalid = (field: string, message: string) => new ConsoleError('InvalidInput', `${field}: ${message}`, { [field]: message });

/**
 * A request's fields as the contract's enqueue takes them; bad input is InvalidInput keyed by the
 * form's field (`task` for the job type, `queue`, `args`, `run_at`, ...). `now` sets a delay's run_at.
 */
export function parseSdjEnqueue(req: EnqueueRequest, now = Date.now()): Required<Omit<SdjEnqueue, 'args' | 'uniqueKey'>> {
  const stray = Object.keys(req.fields).find((k) => !KEYS.includes(k));
  if (stray !== undefined)
    throw invalid(stray, `Simple Durable Jobs' raw-SQL enqueue has no field "${stray.slice(0, 100)}" (it takes ${KEYS.join(', ')})`);
  if (req.task.length > 255) throw invalid('task', 'the job type is at most 255 characters');
  const queue = req.queue ?? SDJ_ENQUEUE.defaultQueue;
  if (queue.length > 255) throw invalid('queue', 'the queue name is at most 255 characters');
  const f = parseInput(ZSdjEnqueueFields, req.fields);
  if (f.unique_key !== undefined && f.unique_key !== '') throw invalid('unique_key', UNIQUE_REFUSED);
  if (f.run_at !== undefined && f.delay !== undefined) throw invalid('delay', 'give run at or a delay, not both');
  const runAt =
    f.run_at !== undefined
      ? new Date(Date.parse(f.run_at)).toISOString()
      : f.delay !== undefined
        ? new Date(now + Math.round(f.delay * 1000)).toISOString()
        : null;
  return {
    type: req.task,
    queue,
    argsJson: f.args,
    priority: f.priority ?? 0,
    maxRetries: f.max_retries ?? DEFAULT_MAX_RETRIES,
    runAt,
  };
}
