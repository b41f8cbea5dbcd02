import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';

/**
 * `POTATOQ_CONSOLE_METRICS_MAX_QUEUES`: queues per broker exported one by one in /metrics
 * (default 500, 1–100,000); the rest are summed into one `queue="(other)"` series per state.
 * `POTATOQ_CONSOLE_METRICS_BUDGET_MS`: how long a snapshot waits for the brokers' reads
 * (default 4000, 100–60,000); a broker past it is its last known values, marked stale.
 * A bad value stops startup naming the variable.
 */
export interface MetricsConfig {
  maxQueues: number;
  budgetMs: number;
}

/** Well under Prometheus's default 10 s `scrape_timeout`, with the spread of the reads' starts. */
export const DEFAULT_BUDGET_MS = 4000;

export const OTHER_QUEUE = '(other)';

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ConfigError(`${name}: must be a whole number from ${min} to ${max}, not "${raw.slice(0, 40)}"`);
  return n;
}

export function parseMetricsConfig(env: Record<string, string | undefined>): MetricsConfig {
  return {
    maxQueues: wholeNumber(env, 'POTATOQ_CONSOLE_METRICS_MAX_QUEUES', 500, 1, 100_000),
    budgetMs: wholeNumber(env, 'POTATOQ_CONSOLE_METRICS_BUDGET_MS', DEFAULT_BUDGET_MS, 100, 60_000),
  };
}

let cached: MetricsConfig | null = null;
export function getMetricsConfig(): MetricsConfig {
  cached ??= parseMetricsConfig(consoleEnv());
  return cached;
}

/** Boot: a bad metrics setting stops the server naming the variable. */
export function bootMetrics(): void {
  try {
    getMetricsConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`potatoq console: bad configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}
