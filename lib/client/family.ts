'use client';
import { useQuery } from '@tanstack/react-query';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import { apiUrl, brokerPath, getJson } from './api';
import { LIVE, usePollInterval } from './refresh';

/** The family's query key: its own, so a replay from the panel refreshes it alone. */
export const familyKey = (b: string, id: string) => ['broker', b, 'family', id] as const;

/** A task's family, polled like the task it belongs to; off (`enabled`) where the broker has none. */
export function useFamily(b: string, id: string, enabled: boolean) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: familyKey(b, id),
    queryFn: ({ signal }) => getJson<TaskFamily>(apiUrl(brokerPath(b, `/family/${encodeURIComponent(id)}`), {}), signal),
    refetchInterval,
    meta: LIVE,
    retry: false,
    enabled,
  });
}
