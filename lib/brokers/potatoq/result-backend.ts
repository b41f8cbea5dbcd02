import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ResultBackend } from './results';
import { createRedisResults } from './redis/results';
import { createPostgresResults } from './postgres/results';
import { createSqliteResults } from './sqlite/results';

/** potatoq's `result_backend` URL (the broker option `resultBackend`) as a ResultBackend, or null. */
export function createResultBackend(o: Record<string, unknown>, brokerId: string, timeoutMs: number): ResultBackend | null {
  const url = o.resultBackend;
  if (url === undefined || url === null || url === '' || url === 'disabled' || url === 'none') return null;
  if (typeof url !== 'string') throw new ConsoleError('InvalidInput', 'resultBackend must be a URL string');
  const extra =
    o.resultBackendOptions && typeof o.resultBackendOptions === 'object' ? (o.resultBackendOptions as Record<string, unknown>) : {};
  const scheme = url.split('://', 1)[0]!.split('+', 1)[0]!.toLowerCase();
  switch (scheme) {
    case 'redis':
    case 'rediss':
    case 'valkey':
    case 'valkeys':
    case 'unix':
      return createRedisResults(url, { global_keyprefix: extra.global_keyprefix, prefix: extra.prefix ?? o.resultPrefix }, timeoutMs);
    case 'postgres':
    case 'postgresql':
      return createPostgresResults(url, extra, brokerId, timeoutMs);
    case 'sqlite':
      return createSqliteResults(url, typeof extra.busyTimeoutMs === 'number' ? extra.busyTimeoutMs : 5000);
    default:
      throw new ConsoleError(
        'InvalidInput',
        `resultBackend: potatoq stores results in redis://, postgresql:// or sqlite://, not "${scheme}"`,
      );
  }
}
