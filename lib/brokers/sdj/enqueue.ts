import 'server-only';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import { idParam, type SdjQuery } from './db';
import type { SdjStore } from './store';
import type { SdjDialect } from './url';
import { ENCRYPTED_PREFIX } from './payload';

// Enqueue through the one write the library documents for non-Go callers: the raw-SQL INSERT
// of `sql-interop.md`, exactly (docs/systems/simple-durable-jobs.md, "Writes" §1). Only the
// columns it names; status 'pending', attempt 0, timeout and determinism 0; everything the
// library owns left NULL (defaults fill dq_ready and fan_out_index); a new UUID bound as the
// schema stores it; args as the JSON's UTF-8 bytes; run_at for a delayed job. Refused, with the
// contract's own reasons: unique or deduplicated jobs, and deployments with a payload codec.

export const ENQUEUE_SQL: Record<SdjDialect, string> = {
  postgres: `INSERT INTO jobs (id, type, args, queue, priority, status, attempt, max_retries, timeout, determinism, run_at, created_at, updated_at)
VALUES ($1, $2, $3::bytea, $4, $5, 'pending', 0, $6, 0, 0, $7, NOW(), NOW())`,
  mysql: `INSERT INTO jobs (id, type, args, queue, priority, status, attempt, max_retries, timeout, determinism, run_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, 0, 0, ?, NOW(6), NOW(6))`,
};

const INT32 = 2_147_483_647;
export const ZSdjEnqueue = z.strictObject({
  type: z.string().trim().min(1, 'type must not be empty').max(255, 'type is at most 255 characters'),
  queue: z.string().min(1, 'queue must not be empty').max(255, 'queue is at most 255 characters'),
  args: z.unknown(),
  priority: z
    .number()
    .int('priority must be a whole number')
    .min(-INT32 - 1)
    .max(INT32)
    .default(0),
  /** The number of runs (the library's `max_retries`; the Go API's default is 2, the contract's example 3). */
  maxRetries: z.number().int('maxRetries must be a whole number').min(0, 'maxRetries must be 0 or more').max(INT32).default(3),
  runAt: z.iso.datetime({ offset: true, error: 'runAt must be an ISO 8601 time' }).nullable().default(null),
  uniqueKey: z.string().optional(),
  /** The args as JSON text, written byte for byte instead of `args` (keeps big integers exact). */
  argsJson: z.string().optional(),
});
export type SdjEnqueue = z.input<typeof ZSdjEnqueue>;

export const UNIQUE_REFUSED =
  'unique jobs cannot be enqueued through raw SQL ("Do not use raw SQL INSERT for unique or deduplicated jobs"): jobs.Unique is Go-only';
export const CODEC_REFUSED =
  'this deployment encrypts payloads (recent jobs carry sdjenc: args), and the raw-SQL contract must not be used with a payload codec';

/** How many of the queue's newest rows are looked at for `sdjenc:` args (via `idx_jobs_queue_created`). */
export const CODEC_SAMPLE = 20;

/** Whether the queue's newest rows carry `sdjenc:` args: the deployment has a payload codec. */
export async function usesPayloadCodec(db: SdjQuery, queue: string): Promise<boolean> {
  const recent = await db.all(`SELECT args FROM jobs WHERE queue = ? ORDER BY created_at DESC LIMIT ${CODEC_SAMPLE}`, [queue]);
  return recent.some((r) => Buffer.isBuffer(r.args) && r.args.subarray(0, ENCRYPTED_PREFIX.length).toString('latin1') === ENCRYPTED_PREFIX);
}

/** Refused as a whole (ReadOnly) unless the ledger shows the verified schema. */
export async function enqueueJob(store: SdjStore, input: SdjEnqueue): Promise<{ id: string; sql: string }> {
  await store.requireWritable();
  const db = store.db;
  const parsed = ZSdjEnqueue.safeParse(input);
  if (!parsed.success) {
    const fields = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'input', i.message]));
    throw new ConsoleError(
      'InvalidInput',
      Object.entries(fields)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
      fields,
    );
  }
  const j = parsed.data;
  if (j.uniqueKey !== undefined && j.uniqueKey !== '')
    throw new ConsoleError('InvalidInput', UNIQUE_REFUSED, { uniqueKey: UNIQUE_REFUSED });
  const json = j.argsJson ?? JSON.stringify(j.args);
  if (json === undefined) throw new ConsoleError('InvalidInput', 'args: must be a JSON value', { args: 'must be a JSON value' });
  if (await usesPayloadCodec(db, j.queue)) throw new ConsoleError('Unsupported', CODEC_REFUSED);
  const id = randomUUID();
  const params = [
    idParam(db.dialect, id),
    j.type,
    Buffer.from(json, 'utf8'),
    j.queue,
    j.priority,
    j.maxRetries,
    j.runAt ? new Date(j.runAt) : null,
  ];
  await db.run(ENQUEUE_SQL[db.dialect].replace(/\$\d+/g, '?'), params);
  return { id, sql: ENQUEUE_SQL[db.dialect] };
}
