'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { RunRole, WorkflowDetail, WorkflowRunPage, WorkflowsDecl } from '@/lib/brokers/workflow-schema';
import { apiUrl, brokerPath, getJson } from '@/lib/client/api';
import { LIVE, usePollInterval } from '@/lib/client/refresh';

// The Workflows view's live queries over its GET routes. A run that is still running is polled
// every 2 s (its DAG changes step by step); a settled one at the console's usual pace.

export const wfKeys = {
  runs: (b: string, status: string) => ['broker', b, 'workflows', status] as const,
  run: (b: string, id: string) => ['broker', b, 'workflow', id] as const,
};

/** The part a status plays, from the adapter's declaration (unknown: waiting). */
export const roleOf = (statuses: WorkflowsDecl['runStatuses'] | undefined, key: string): RunRole =>
  statuses?.find((s) => s.key === key)?.role ?? 'waiting';

export function useWorkflowRuns(b: string, status: string) {
  const refetchInterval = usePollInterval();
  return useInfiniteQuery({
    queryKey: wfKeys.runs(b, status),
    queryFn: ({ signal, pageParam }) =>
      getJson<WorkflowRunPage>(apiUrl(brokerPath(b, '/workflows'), { status: status || undefined, cursor: pageParam, limit: 50 }), signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval,
    meta: LIVE,
  });
}

export function useWorkflow(b: string, id: string, decl: WorkflowsDecl | undefined) {
  const base = usePollInterval();
  return useQuery({
    queryKey: wfKeys.run(b, id),
    queryFn: ({ signal }) => getJson<WorkflowDetail>(brokerPath(b, `/workflows/${encodeURIComponent(id)}`), signal),
    refetchInterval: (q) => {
      const role = q.state.data ? roleOf(decl?.runStatuses, q.state.data.status) : null;
      return base !== false && (role === 'running' || role === 'waiting') ? 2000 : base;
    },
    meta: LIVE,
    retry: false,
  });
}
