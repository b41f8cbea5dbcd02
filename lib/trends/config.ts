import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';

/**
 * `POTATOQ_CONSOLE_TRENDS_INTERVAL_S`: seconds between samples (default 60; 0 turns sampling
 * off). `POTATOQ_CONSOLE_TRENDS_RETENTION_HOURS`: how long samples are kept (default 168, the
 * week the longest chart shows; at most 2160). `POTATOQ_CONSOLE_TRENDS_MAX_QUEUES`: queues
 * sampled per broker (default 200: the busiest, their known counts and dead letters summed;
 * the broker's totals are sampled whatever the number).
 * A bad value stops startup naming the variable.
 */
export interface TrendConfig {
  intervalMs: number;
  retentionMs: number;
  maxQueues: number;
}

function whole(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ConfigError(`${name}: must be a whole number from ${min} to ${max}, not "${raw.slice(0, 40)}"`);
  return n;
}

export function parseTrendConfig(env: Record<string, string | undefined>): TrendConfig {
  return {
    intervalMs: whole(env, 'POTATOQ_CONSOLE_TRENDS_INTERVAL_S', 60, 0, 3600) * 1000,
    retentionMs: whole(env, 'POTATOQ_CONSOLE_TRENDS_RETENTION_HOURS', 168, 1, 2160) * 3_600_000,
    maxQueues: whole(env, 'POTATOQ_CONSOLE_TRENDS_MAX_QUEUES', 200, 1, 10_000),
  };
}

let cached: TrendConfig | null = null;
export function getTrendConfig(): TrendConfig {
  cached ??= parseTrendConfig(consoleEnv());
  return cached;
}
