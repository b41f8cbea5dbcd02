'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useToasts } from '@/components/ui/toasts';
import type { BulkJobView } from '@/lib/bulk/schema';
import { toastForBulkEnd } from './bulk-text';
import { brokerPath, getJson } from '@/lib/client/api';
import { useOverview } from '@/lib/client/hooks';

const LIVE = new Set(['running', 'paused']);

/** Polls a job while it runs; when it stops, toasts its outcome and refetches the broker's lists once. */
export function useBulkJob(brokerId: string, initial: BulkJobView | null) {
  const qc = useQueryClient();
  const toast = useToasts();
  const model = useOverview(brokerId).data?.model;
  const jobId = initial?.id ?? '';
  const q = useQuery({
    queryKey: ['bulk', brokerId, jobId],
    queryFn: ({ signal }) => getJson<BulkJobView>(brokerPath(brokerId, `/bulk/${encodeURIComponent(jobId)}`), signal),
    enabled: jobId !== '',
    initialData: initial ?? undefined,
    refetchInterval: (query) => (query.state.data && LIVE.has(query.state.data.state) ? 500 : false),
  });
  const state = q.data?.state;
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (seen.current && LIVE.has(seen.current) && state && !LIVE.has(state) && q.data) {
      void qc.invalidateQueries({ queryKey: ['broker', brokerId] });
      toast([toastForBulkEnd(q.data, model)]);
    }
    seen.current = state;
  }, [state, brokerId, qc, q.data, toast, model]);
  return q;
}

/** The broker's bulk jobs (no per-id lists), so a running job can be reopened after its dialog closed. */
export function useBulkJobs(brokerId: string) {
  return useQuery({
    queryKey: ['bulk', brokerId, 'list'],
    queryFn: ({ signal }) => getJson<BulkJobView[]>(brokerPath(brokerId, '/bulk'), signal),
    refetchInterval: (query) => (query.state.data?.some((j) => LIVE.has(j.state)) ? 1000 : 5000),
  });
}
