import 'server-only';
import { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';

// QueueFlow 0.6.0's answers as observed (docs/systems/queueflow.md). Optional fields are absent,
// not null, when unset; unknown fields are kept (a newer server may add some).

const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const ZJob = z.looseObject({
  id: z.string(),
  queue_name: z.string(),
  task_name: z.string(),
  payload: z.unknown(),
  config: opt(z.record(z.string(), z.unknown())),
  status: z.string(),
  created_at: z.string(),
  scheduled_at: opt(z.string()),
  started_at: opt(z.string()),
  completed_at: opt(z.string()),
  delivery_count: z.number(),
  retry_count: z.number(),
  error_message: opt(z.string()),
  next_retry_at: opt(z.string()),
  result: z.unknown().optional(),
  metadata: opt(z.record(z.string(), z.unknown())),
  tenant_id: opt(z.string()),
  idempotency_key: opt(z.string()),
  workflow_id: opt(z.string()),
});
export type QfJob = z.infer<typeof ZJob>;

export const ZJobPage = z.object({
  jobs: z.array(ZJob),
  has_more: z.boolean(),
  next_cursor: opt(z.string()),
  total: opt(z.number()),
});

export const ZDeadLetter = z.looseObject({
  id: z.number(),
  job_id: z.string(),
  queue_name: opt(z.string()),
  task_name: opt(z.string()),
  reason: z.string(),
  error_message: opt(z.string()),
  created_at: z.string(),
  replayed_at: opt(z.string()),
  replay_job_id: opt(z.string()),
});
export type QfDeadLetter = z.infer<typeof ZDeadLetter>;

export const ZDeadPage = z.object({
  dead_letters: z.array(ZDeadLetter),
  has_more: z.boolean(),
  next_cursor: opt(z.string()),
  total: opt(z.number()),
});

export const ZQueues = z.object({
  queues: z.array(
    z.looseObject({
      queue: z.string(),
      pending: z.number(),
      scheduled: z.number(),
      running: z.number(),
      oldest_pending_age_secs: opt(z.number()),
      paused: opt(z.boolean()),
    }),
  ),
});

export const ZWhoAmI = z.looseObject({ tenant: opt(z.string()), access: z.string() });
export const ZHealth = z.looseObject({ version: opt(z.string()) });
export const ZCreated = z.object({ job_id: z.string() });
export const ZCancelled = z.object({ cancelled: z.number() });
export const ZPaused = z.looseObject({ queue: z.string(), paused: z.boolean(), pending: opt(z.number()), running: opt(z.number()) });

/** Parses an answer; a shape we do not know is the server's fault, said without its data. */
export function parseWire<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const at = issue?.path.length ? ` at ${issue.path.map(String).join('.')}` : '';
  throw new ConsoleError(
    'BrokerUnavailable',
    `QueueFlow's answer to ${what} is not what version 0.6.0 sends${at}: ${issue?.message ?? ''}`,
  );
}

/** A QueueFlow timestamp (RFC 3339 with up to µs) as microseconds since the epoch, as its
 *  keyset cursors carry it (`<µs>:<id>`). Null when unparsable. */
export function micros(iso: string): bigint | null {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return null;
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(ms) * 1000n + BigInt(frac);
}

/** The server's keyset cursor positioned just after this row (the format `next_cursor` has). */
export function cursorAfter(createdAt: string, id: string | number): string | null {
  const us = micros(createdAt);
  return us === null ? null : `${us}:${id}`;
}
