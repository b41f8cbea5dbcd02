'use client';
import { useQuery } from '@tanstack/react-query';
import type { ScheduleList } from '@/lib/brokers/schedule';
import { brokerPath, getJson } from '@/lib/client/api';
import { LIVE, usePollInterval } from '@/lib/client/refresh';

import { schedulesKey } from './keys';

export function useSchedules(b: string) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: schedulesKey(b),
    queryFn: ({ signal }) => getJson<ScheduleList>(brokerPath(b, '/schedules'), signal),
    refetchInterval,
    meta: LIVE,
  });
}
