import 'server-only';
import type { Redis } from 'ioredis';
import { ConsoleError } from '@/lib/brokers/errors';
import type { PayloadPreview, TaskSummary } from '@/lib/brokers/schema';
import { envelopePreview, type CeleryEnvelope } from '../message';
import type { CeleryRedisKeys } from './keys';
import type { ReadStats } from './read-script';
import type { QueueSplits } from './split';

/** The Redis result backend, whatever the broker: failures, results, replay's claim. */
export interface ResultCtx {
  brokerId: string;
  /** The result backend's client; null when none is configured. */
  backend: Redis | null;
  resultPrefix: string;
  resultExpires: number;
  /** At most this many records are indexed (./result-index.ts); tests lower it. */
  resultCap?: number;
}

/** What every read and write of one Celery-on-Redis adapter shares. */
export interface CeleryRedisCtx extends ResultCtx {
  client: Redis;
  keys: CeleryRedisKeys;
  /** The broker's db number (the pidbox channel names it). */
  db: number;
  queues: string[] | undefined;
  visibilityTimeout: number;
  inspectTimeoutMs: number;
  /** What this adapter's reads of kombu's keys cost so far (./read-script.ts). */
  stats: ReadStats;
  /** The overview's waiting/future split kept between polls (./split.ts), made by the first. */
  splits?: QueueSplits;
}

export const NO_BACKEND =
  'no result backend is configured (option resultBackend): Celery keeps failures and results only there, so failures, results and replay are off';

export function requireBackend(ctx: ResultCtx): Redis {
  if (!ctx.backend) throw new ConsoleError('Unsupported', NO_BACKEND);
  return ctx.backend;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function summaryOf(
  env: CeleryEnvelope,
  at: { queue: string; state: string; seq: string; id: string; claimedAtMs?: number | null },
): TaskSummary {
  const preview: PayloadPreview = envelopePreview(env);
  return {
    id: at.id,
    queue: at.queue,
    task: env.info.task ?? '(unknown)',
    state: at.state,
    priority: String(env.priority ?? 0),
    runAt: iso(env.etaMs),
    // kombu's messages carry no enqueue time.
    createdAt: null,
    claimedAt: iso(at.claimedAtMs ?? null),
    // kombu's unacked hash does not record which worker holds a message.
    worker: null,
    pid: null,
    deliveries: env.info.retries ?? '0',
    preview,
    seq: at.seq,
  };
}
