'use client';
import { useQuery } from '@tanstack/react-query';
import type { ScheduleList } from '@/lib/brokers/schedule';
import { brokerPath, getJson } from '@/lib/client/api';
import { usePollInterval } from '@/lib/client/refresh';

/** Under the broker's key, so every action's refetch (use-broker-action) reads them again. */
export const schedulesKey = (b: string) => ['broker', b, 'schedules'] as const;

export function useSchedules(b: string) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: schedulesKey(b),
    queryFn: ({ signal }) => getJson<ScheduleList>(brokerPath(b, '/schedules'), signal),
    refetchInterval,
  });
}
