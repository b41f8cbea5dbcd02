// The enqueue input as the server actions, POST routes, client forms and the systems' own tests
// read it (re-exported by lib/actions/schemas.ts). Client-safe: no server imports.
import { z } from 'zod';
import { type EnqueueRequest, ZEnqueueRequest } from './schema';

/** Keys of an enqueue body that are not field values. */
const ENQUEUE_KEYS = new Set(['task', 'queue', 'fields', 'reason', 'allowUnknown']);

/**
 * An enqueue body: `{task, queue, fields: {...}}`, or the older flat body (`{task, queue, args,
 * kwargs, priority, ...}`, as the API took before fields were declared by the adapter): its other
 * keys become `fields`. Both at once is refused, naming the stray key. An empty queue means
 * "not given" (the system's default queue).
 */
export const ZEnqueueInput = z
  .preprocess(
    (raw) => {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
      const r = raw as Record<string, unknown>;
      const out: Record<string, unknown> = { task: r.task, fields: r.fields };
      if (r.queue !== '' && r.queue !== null) out.queue = r.queue;
      if (r.allowUnknown !== undefined) out.allowUnknown = r.allowUnknown;
      const flat = Object.keys(r).filter((k) => !ENQUEUE_KEYS.has(k));
      if (flat.length && r.fields === undefined) out.fields = Object.fromEntries(flat.map((k) => [k, r[k]]));
      else if (flat.length) out.stray = flat[0];
      return out;
    },
    ZEnqueueRequest.extend({ stray: z.string().optional() }),
  )
  .superRefine((r, ctx) => {
    if (r.stray) ctx.addIssue({ code: 'custom', path: [r.stray], message: `give "${r.stray}" inside "fields"` });
  })
  .transform(({ stray: _, ...r }): EnqueueRequest => r);
