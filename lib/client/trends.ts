'use client';
import { useQuery } from '@tanstack/react-query';
import type { DeadTrend, QueueTrend, TrendRange } from '@/lib/trends/schema';
import { apiUrl, brokerPath, getJson } from './api';
import { useRefresh } from './refresh';

/** Trends change by the bucket (a minute at least): polled far less often than live counts. */
export const TREND_POLL_MS = 30_000;

export const trendKeys = {
  dead: (b: string, range: TrendRange, queue?: string, group?: string, span: { since?: string; until?: string } = {}) =>
    span.since || span.until
      ? (['broker', b, 'trend-dead', range, queue ?? '', group ?? '', span.since ?? '', span.until ?? ''] as const)
      : (['broker', b, 'trend-dead', range, queue ?? '', group ?? ''] as const),
  queue: (b: string, range: TrendRange, queue?: string) => ['broker', b, 'trend-queue', range, queue ?? ''] as const,
};

/** With `since`/`until` (a list's range, as written) the server's window follows the range. */
export function useDeadTrend(b: string, range: TrendRange, f: { queue?: string; group?: string; since?: string; until?: string } = {}) {
  const paused = useRefresh().paused;
  const { queue, group, since, until } = f;
  return useQuery({
    queryKey: trendKeys.dead(b, range, queue, group, { since, until }),
    queryFn: ({ signal }) => getJson<DeadTrend>(apiUrl(brokerPath(b, '/trends/dead'), { range, queue, group, since, until }), signal),
    refetchInterval: paused ? false : TREND_POLL_MS,
    retry: false,
  });
}

export function useQueueTrend(b: string, range: TrendRange, queue?: string) {
  const paused = useRefresh().paused;
  return useQuery({
    queryKey: trendKeys.queue(b, range, queue),
    queryFn: ({ signal }) => getJson<QueueTrend>(apiUrl(brokerPath(b, '/trends/queues'), { range, queue }), signal),
    refetchInterval: paused ? false : TREND_POLL_MS,
    retry: false,
  });
}
