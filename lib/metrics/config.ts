import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';

/**
 * `POTATOQ_CONSOLE_METRICS_MAX_QUEUES`: queues per broker exported one by one in /metrics
 * (default 500, 1–100,000); the rest are summed into one `queue="(other)"` series per state.
 * A bad value stops startup naming the variable.
 */
export interface MetricsConfig {
  maxQueues: number;
}

export const OTHER_QUEUE = '(other)';

export function parseMetricsConfig(env: Record<string, string | undefined>): MetricsConfig {
  const name = 'POTATOQ_CONSOLE_METRICS_MAX_QUEUES';
  const raw = env[name]?.trim();
  if (!raw) return { maxQueues: 500 };
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 100_000)
    throw new ConfigError(`${name}: must be a whole number from 1 to 100000, not "${raw.slice(0, 40)}"`);
  return { maxQueues: n };
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
