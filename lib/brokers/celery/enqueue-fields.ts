import 'server-only';
import { z } from 'zod';
import { parseInput } from '@/lib/actions/zod-fields';
import { ConsoleError } from '@/lib/brokers/errors';
import type { EnqueueDecl, EnqueueRequest } from '@/lib/brokers/schema';

// What `app.send_task` takes, declared for the enqueue form and checked here; shared by Celery on
// Redis and on RabbitMQ. Arguments are JSON with kombu's `__type__` markers for typed values.

const given = (v: unknown) => (v === '' || v === null ? undefined : v);
const jsonText = (v: unknown) => (v === undefined || v === null || typeof v === 'string' ? (v ?? undefined) : JSON.stringify(v));
const optionalText = z.preprocess(
  given,
  z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => (v ? v : undefined)),
);

export const ZCeleryEnqueueFields = z
  .strictObject({
    args: z.preprocess(jsonText, z.string().max(1_000_000).default('[]')),
    kwargs: z.preprocess(jsonText, z.string().max(1_000_000).default('{}')),
    /** AMQP priorities are 0-255; kombu's Redis transport clamps to 0-9. */
    priority: z.preprocess(given, z.coerce.number().int('priority must be a whole number').min(0).max(255).default(0)),
    countdown: z.preprocess(
      given,
      z.coerce
        .number()
        .min(0, 'countdown cannot be negative')
        .max(10 * 365 * 86400)
        .optional(),
    ),
    eta: optionalText,
    expires: optionalText,
    headers: z.preprocess(jsonText, z.string().max(100_000).default('{}')),
  })
  .refine((r) => !(r.countdown !== undefined && r.eta !== undefined), {
    message: 'give either a countdown or an eta, not both',
    path: ['eta'],
  });

const KEYS = new Set(Object.keys(ZCeleryEnqueueFields.shape));
export const CELERY_DEFAULT_QUEUE = 'celery';

export type CeleryEnqueue = z.output<typeof ZCeleryEnqueueFields> & { task: string; queue: string };

/** The request's field values as send_task takes them; bad ones are InvalidInput keyed by field. */
export function parseCeleryEnqueue(req: EnqueueRequest): CeleryEnqueue {
  const stray = Object.keys(req.fields).find((k) => !KEYS.has(k));
  if (stray !== undefined) {
    const message = `Celery's send_task has no field "${stray.slice(0, 100)}" (it takes ${[...KEYS].join(', ')})`;
    throw new ConsoleError('InvalidInput', message, { [stray]: message });
  }
  return { ...parseInput(ZCeleryEnqueueFields, req.fields), task: req.task, queue: req.queue ?? CELERY_DEFAULT_QUEUE };
}

export const CELERY_ENQUEUE: EnqueueDecl = {
  does: 'Writes the message `app.send_task` would write for the same arguments (protocol 2, headers included).',
  defaultQueue: CELERY_DEFAULT_QUEUE,
  // kombu's markers for these take the value as text; its UUID marker wants {"hex": ...} and
  // its bytes marker UTF-8 text, which the form's template cannot write.
  typed: { kinds: ['datetime', 'date', 'time', 'decimal'], template: '{"__type__": "{kind}", "__value__": {value}}' },
  fields: [
    { key: 'args', kind: 'json-list', label: 'Arguments (JSON list)', default: '[]', typed: true },
    { key: 'kwargs', kind: 'json-object', label: 'Keyword arguments (JSON object)', default: '{}', typed: true },
    {
      key: 'priority',
      kind: 'integer',
      label: 'Priority',
      default: '0',
      min: 0,
      max: 255,
      help: 'On Redis kombu takes 0-2 first, then 3-5, 6-8 and 9; on RabbitMQ higher runs first in a priority queue.',
    },
    {
      key: 'countdown',
      kind: 'duration',
      label: 'Countdown (seconds)',
      placeholder: '60',
      min: 0,
      max: 10 * 365 * 86400,
      exclusive: 'When',
      schedules: true,
    },
    { key: 'eta', kind: 'datetime', label: 'Eta (your local time)', help: 'Sent as UTC.', exclusive: 'When', schedules: true },
    {
      key: 'expires',
      kind: 'text',
      label: 'Expires',
      placeholder: '3600 or 2026-12-01T00:00:00+00:00',
      help: 'Seconds from now, or an ISO 8601 date-time. Empty: never.',
    },
    { key: 'headers', kind: 'json-object', label: 'Extra headers (JSON object)', default: '{}', advanced: true },
  ],
};
