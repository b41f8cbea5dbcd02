import 'server-only';
import { callFields, parseCallFields, type CallFields } from '@/lib/brokers/call-fields';
import type { EnqueueDecl, EnqueueRequest } from '@/lib/brokers/schema';

// What `app.send_task` takes, declared for the enqueue form and checked here; shared by Celery on
// Redis and on RabbitMQ. Arguments are JSON with kombu's `__type__` markers for typed values.

/** AMQP priorities are 0-255; kombu's Redis transport clamps to 0-9. */
export const ZCeleryEnqueueFields = callFields({ min: 0, max: 255 });
export const CELERY_DEFAULT_QUEUE = 'celery';

export type CeleryEnqueue = CallFields & { task: string; queue: string };

/** The request's field values as send_task takes them; bad ones are InvalidInput keyed by field. */
export function parseCeleryEnqueue(req: EnqueueRequest): CeleryEnqueue {
  return {
    ...parseCallFields(ZCeleryEnqueueFields, req.fields, "Celery's send_task"),
    task: req.task,
    queue: req.queue ?? CELERY_DEFAULT_QUEUE,
  };
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
