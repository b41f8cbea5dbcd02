'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActionResponse } from '@/lib/actions/response';

/**
 * Runs a server action once (no retries, no optimistic update) and, whatever happened,
 * refetches the broker's data: workers may have changed it under us anyway.
 */
export function useBrokerAction<T, A>(brokerId: string, run: (input: A) => Promise<ActionResponse<T>>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    retry: false,
    onSettled: () => qc.invalidateQueries({ queryKey: ['broker', brokerId] }),
  });
}
