import 'server-only';
import { z } from 'zod';
import { ZSdjOptions } from './store';

/**
 * A Simple Durable Jobs broker entry's options, checked at boot (a bad or unknown one stops
 * startup naming the field). The store's own (`schema`: the PostgreSQL schema holding the
 * library's tables, default the URL user's `search_path`; `lockWaitMs`: how long a write waits
 * for a row a worker holds, default 2000) and the adapter's: `staleLockMinutes`, the workers'
 * `WithStaleLockAge` (default 45, the library's; it is not stored in the database) by which a
 * running job counts as stuck; `countTimeoutMs`, the deadline of the overview's counts (default
 * 10000: no index covers queue and status together, so they read every row).
 */
export const ZSdjBrokerOptions = z.strictObject({
  ...ZSdjOptions.shape,
  staleLockMinutes: z
    .number({ error: 'staleLockMinutes must be a number of minutes' })
    .int('staleLockMinutes must be a whole number')
    .min(1, 'staleLockMinutes must be at least 1')
    .max(10_080, 'staleLockMinutes must be at most 10080')
    .optional(),
  countTimeoutMs: z
    .number({ error: 'countTimeoutMs must be a number of milliseconds' })
    .int('countTimeoutMs must be a whole number')
    .min(100, 'countTimeoutMs must be at least 100')
    .max(120_000, 'countTimeoutMs must be at most 120000')
    .optional(),
});
export type SdjBrokerOptions = z.infer<typeof ZSdjBrokerOptions>;
