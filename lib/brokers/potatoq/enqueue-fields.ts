import 'server-only';
import { z } from 'zod';
import { parseInput } from '@/lib/actions/zod-fields';
import { ConsoleError } from '@/lib/brokers/errors';
import type { EnqueueDecl, EnqueueRequest } from '@/lib/brokers/schema';

// What potatoq's `call`/`delay` take, declared for the enqueue form and checked with potatoq's
// own schema; shared by every potatoq store (SQLite, PostgreSQL, RabbitMQ, Redis).

/** Empty text (an untouched form input) and null mean "not given". */
const given = (v: unknown) => (v === '' || v === null ? undefined : v);
/** JSON fields may arrive as JSON text (exact: big integers and NaN survive) or as JSON values
 *  (convenient for scripts; numbers beyond 2^53 are rounded by the client's JSON parser). */
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

export const ZPotatoqEnqueueFields = z
  .strictObject({
    /** JSON text of a list (so tagged values and big integers survive exactly). */
    args: z.preprocess(jsonText, z.string().max(1_000_000).default('[]')),
    kwargs: z.preprocess(jsonText, z.string().max(1_000_000).default('{}')),
    priority: z.preprocess(given, z.coerce.number().int('priority must be a whole number').min(-32768).max(32767).default(0)),
    /** Seconds from now; exclusive with eta. */
    countdown: z.preprocess(
      given,
      z.coerce
        .number()
        .min(0, 'countdown cannot be negative')
        .max(10 * 365 * 86400)
        .optional(),
    ),
    /** ISO 8601 date-time with offset, or Unix seconds. */
    eta: optionalText,
    /** ISO 8601 date-time, or seconds from now when a plain number. */
    expires: optionalText,
    headers: z.preprocess(jsonText, z.string().max(100_000).default('{}')),
  })
  .refine((r) => !(r.countdown !== undefined && r.eta !== undefined), {
    message: 'give either a countdown or an eta, not both',
    path: ['eta'],
  });

const KEYS = new Set(Object.keys(ZPotatoqEnqueueFields.shape));

/** A potatoq enqueue, checked: what `buildMessage` takes. */
export type PotatoqEnqueue = z.output<typeof ZPotatoqEnqueueFields> & { task: string; queue: string };

/** The request's field values as potatoq reads them; bad ones are InvalidInput keyed by field. */
export function parsePotatoqEnqueue(req: EnqueueRequest): PotatoqEnqueue {
  const stray = Object.keys(req.fields).find((k) => !KEYS.has(k));
  if (stray !== undefined) {
    const message = `potatoq's enqueue has no field "${stray.slice(0, 100)}" (it takes ${[...KEYS].join(', ')})`;
    throw new ConsoleError('InvalidInput', message, { [stray]: message });
  }
  return { ...parseInput(ZPotatoqEnqueueFields, req.fields), task: req.task, queue: req.queue ?? 'default' };
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
