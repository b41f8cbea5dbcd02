// Inputs of the write actions, shared by server actions, POST routes and client forms.
import { z } from 'zod';
import { ZIds, ZQueueName } from '@/lib/brokers/schema';

export const ZPurgeRequest = z
  .object({ queue: ZQueueName, confirm: z.string({ error: 'type the queue name to confirm' }) })
  .refine((r) => r.confirm === r.queue, { message: 'type the exact queue name to confirm', path: ['confirm'] });
export type PurgeRequest = z.infer<typeof ZPurgeRequest>;

/** Pause or resume one queue (where the system can: capability `pause`). */
export const ZPauseRequest = z.object({ queue: ZQueueName, paused: z.boolean({ error: 'paused must be true or false' }) });
export type PauseRequest = z.infer<typeof ZPauseRequest>;

export { ZEnqueueInput } from '@/lib/brokers/enqueue-input';
export { ZIds };
