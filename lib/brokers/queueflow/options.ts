import 'server-only';
import { z } from 'zod';

/**
 * A QueueFlow broker entry's options, checked at boot (a bad or unknown one stops startup
 * naming the field). `token`: the tenant's API key or JWT (a read-only key or `scope: read`
 * JWT makes the broker read-only; the worker token is refused by QueueFlow on these routes).
 * It stays on the server: only the Authorization header of the adapter's calls carries it.
 * `timeoutMs`: each API call's deadline (default 8000; the server waits 30 s on a dead database).
 */
export const ZQueueflowOptions = z.strictObject({
  token: z.string({ error: 'token must be the tenant API key or JWT (a string)' }).min(1, 'token must not be empty'),
  timeoutMs: z
    .number({ error: 'timeoutMs must be a number of milliseconds' })
    .int('timeoutMs must be a whole number')
    .min(100, 'timeoutMs must be at least 100')
    .max(60_000, 'timeoutMs must be at most 60000')
    .optional(),
});
export type QueueflowOptions = z.infer<typeof ZQueueflowOptions>;
