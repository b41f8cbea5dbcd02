// Inputs of the write actions, shared by server actions, POST routes and client forms.
import { z } from 'zod';
import { ZEnqueueRequest, ZIds, ZQueueName } from '@/lib/brokers/schema';

export const ZPurgeRequest = z
  .object({ queue: ZQueueName, confirm: z.string({ error: 'type the queue name to confirm' }) })
  .refine((r) => r.confirm === r.queue, { message: 'type the exact queue name to confirm', path: ['confirm'] });
export type PurgeRequest = z.infer<typeof ZPurgeRequest>;

/** Pause or resume one queue (where the system can: capability `pause`). */
export const ZPauseRequest = z.object({ queue: ZQueueName, paused: z.boolean({ error: 'paused must be true or false' }) });
export type PauseRequest = z.infer<typeof ZPauseRequest>;

/**
 * JSON fields of an enqueue request may arrive as JSON text (exact: big integers and NaN
 * survive) or as JSON values (convenient for scripts; numbers beyond 2^53 are already rounded
 * by the JSON parser before we see them, so the docs recommend text).
 */
const jsonText = (v: unknown) => (v === undefined || v === null || typeof v === 'string' ? (v ?? undefined) : JSON.stringify(v));

export const ZEnqueueInput = z.preprocess((raw) => {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const r = raw as Record<string, unknown>;
  const out: Record<string, unknown> = { ...r, args: jsonText(r.args), kwargs: jsonText(r.kwargs), headers: jsonText(r.headers) };
  // Empty form fields mean "not given".
  for (const k of ['countdown', 'priority', 'queue'] as const) if (out[k] === '' || out[k] === null) delete out[k];
  return out;
}, ZEnqueueRequest);

export { ZIds };
