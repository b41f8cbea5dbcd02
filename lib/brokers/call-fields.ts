import 'server-only';
import { z } from 'zod';
import { given } from '@/lib/brokers/form-values';
import { parseInput } from '@/lib/brokers/parse-input';
import { ConsoleError } from './errors';

// The enqueue fields of systems whose producers take Celery's call shape (args and kwargs as
// JSON, priority, a countdown or an eta, expires, headers): potatoq and Celery. Each declares
// its own priority range and names itself in refusals.

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

export function callFields(priority: { min: number; max: number }) {
  return z
    .strictObject({
      /** JSON text of a list (so tagged values and big integers survive exactly). */
      args: z.preprocess(jsonText, z.string().max(1_000_000).default('[]')),
      kwargs: z.preprocess(jsonText, z.string().max(1_000_000).default('{}')),
      priority: z.preprocess(
        given,
        z.coerce.number().int('priority must be a whole number').min(priority.min).max(priority.max).default(0),
      ),
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
}

export type CallFields = z.output<ReturnType<typeof callFields>>;

/** Field values checked with `schema`; a key it does not take is refused under that key,
 *  saying what `what` takes. Bad values are InvalidInput keyed by field. */
export function parseCallFields(schema: ReturnType<typeof callFields>, fields: Record<string, unknown>, what: string): CallFields {
  const keys = Object.keys(schema.shape);
  const stray = Object.keys(fields).find((k) => !keys.includes(k));
  if (stray !== undefined) {
    const message = `${what} has no field "${stray.slice(0, 100)}" (it takes ${keys.join(', ')})`;
    throw new ConsoleError('InvalidInput', message, { [stray]: message });
  }
  return parseInput(schema, fields);
}
