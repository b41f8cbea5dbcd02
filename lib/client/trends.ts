'use client';
import { useQuery } from '@tanstack/react-query';
import type { DeadTrend, QueueTrend, TrendRange } from '@/lib/trends/schema';
import { apiUrl, brokerPath, getJson } from './api';
import { useRefresh } from './refresh';

/** Trends change by the bucket (a minute at least): polled far less often than live counts. */
export const TREND_POLL_MS = 30_000;

export const trendKeys = {
  dead: (b: string, range: TrendRange, queue?: string, group?: string) =>
    ['broker', b, 'trend-dead', range, queue ?? '', group ?? ''] as const,
  queue: (b: string, range: TrendRange, queue?: string) => ['broker', b, 'trend-queue', range, queue ?? ''] as const,
};

export function useDeadTrend(b: string, range: TrendRange, f: { queue?: string; group?: string } = {}) {
  const paused = useRefresh().paused;
  return useQuery({
    queryKey: trendKeys.dead(b, range, f.queue, f.group),
    queryFn: ({ signal }) => getJson<DeadTrend>(apiUrl(brokerPath(b, '/trends/dead'), { range, queue: f.queue, group: f.group }), signal),
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
