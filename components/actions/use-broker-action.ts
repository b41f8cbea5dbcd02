'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToasts } from '@/components/ui/toasts';
import type { ActionResponse } from '@/lib/actions/response';
import { toastsFor } from '@/lib/client/outcome-toasts';

/**
 * Runs a server action once (no retries, no optimistic update), toasts what happened to each
 * task and, whatever happened, refetches the broker's data: workers may have changed it under
 * us anyway. `verb` words the toasts ("converted and replayed").
 */
export function useBrokerAction<T, A>(brokerId: string, run: (input: A) => Promise<ActionResponse<T>>, verb?: string) {
  const qc = useQueryClient();
  const toast = useToasts();
  return useMutation({
    mutationFn: run,
    retry: false,
    onSuccess: (res) => toast(toastsFor(res, verb)),
    onError: (e) => toast([{ tone: 'error', title: 'The action did not complete', body: e instanceof Error ? e.message : String(e) }]),
    onSettled: () => qc.invalidateQueries({ queryKey: ['broker', brokerId] }),
  });
}
