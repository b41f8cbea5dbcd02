import 'server-only';
import { callFields, parseCallFields, type CallFields } from '@/lib/brokers/call-fields';
import type { EnqueueDecl, EnqueueRequest } from '@/lib/brokers/schema';

// What potatoq's `call`/`delay` take, declared for the enqueue form and checked with potatoq's
// own schema; shared by every potatoq store (SQLite, PostgreSQL, RabbitMQ, Redis).

export const ZPotatoqEnqueueFields = callFields({ min: -32768, max: 32767 });

/** A potatoq enqueue, checked: what `buildMessage` takes. */
export type PotatoqEnqueue = CallFields & { task: string; queue: string };

/** The request's field values as potatoq reads them; bad ones are InvalidInput keyed by field. */
export function parsePotatoqEnqueue(req: EnqueueRequest): PotatoqEnqueue {
  return { ...parseCallFields(ZPotatoqEnqueueFields, req.fields, "potatoq's enqueue"), task: req.task, queue: req.queue ?? 'default' };
}

/** The form's fields for potatoq, in `potatoq call`'s terms. */
export const POTATOQ_ENQUEUE: EnqueueDecl = {
  does: "Writes one compact message, exactly as potatoq's `call`/`delay` would.",
  defaultQueue: 'default',
  routes: 'The queues of the live workers that registered the task (potatoq workers report their task names and queues).',
  typed: {
    kinds: ['datetime', 'date', 'decimal', 'uuid', 'bytes', 'set', 'timedelta'],
    template: '{"__potatoq__":"{kind}","v":{value}}',
  },
  fields: [
    { key: 'args', kind: 'json-list', label: 'Arguments (JSON list)', default: '[]', typed: true },
    { key: 'kwargs', kind: 'json-object', label: 'Keyword arguments (JSON object)', default: '{}', typed: true },
    { key: 'priority', kind: 'integer', label: 'Priority', default: '0', min: -32768, max: 32767, help: 'Higher runs first.' },
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
    { key: 'eta', kind: 'datetime', label: 'Eta (your local time)', help: 'Stored as UTC.', exclusive: 'When', schedules: true },
    {
      key: 'expires',
      kind: 'text',
      label: 'Expires',
      placeholder: '3600 or 2026-12-01T00:00:00+00:00',
      help: 'Seconds from now, or an ISO 8601 date-time with offset. Empty: never.',
    },
    { key: 'headers', kind: 'json-object', label: 'Headers (JSON object)', default: '{}', advanced: true },
  ],
};
