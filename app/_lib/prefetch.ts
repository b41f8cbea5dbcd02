import 'server-only';
import { QueryClient } from '@tanstack/react-query';
import { ZDeadGroupsQuery, ZDeadListQuery, ZResultListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import { currentPrincipal } from '@/lib/auth/current';
import { overviewFor } from '@/lib/auth/mask';
import * as reads from '@/lib/auth/redact';
import * as service from '@/lib/brokers/service';
import { PAGE_SIZE, qk, type DeadFilters, type ResultFilters, type TaskFilters } from '@/lib/client/query-keys';

// Server-side prefetch into react-query with the client's keys. Failed reads are left out of
// the dehydrated state, so the client query fetches again and shows the error in place.

export function newServerQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 4000 } } });
}

export const prefetchOverview = (qc: QueryClient, b: string) =>
  qc.prefetchQuery({ queryKey: qk.overview(b), queryFn: async () => overviewFor(await service.overview(b), await currentPrincipal()) });

export const prefetchTasks = (qc: QueryClient, b: string, f: TaskFilters) =>
  qc.prefetchInfiniteQuery({
    queryKey: qk.tasks(b, f),
    queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
      reads.readTasks(b, ZTaskListQuery.parse({ ...f, cursor: pageParam, limit: PAGE_SIZE })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor ?? undefined,
  });

export const prefetchDead = (qc: QueryClient, b: string, f: DeadFilters) =>
  qc.prefetchInfiniteQuery({
    queryKey: qk.dead(b, f),
    queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
      reads.readDead(b, ZDeadListQuery.parse({ ...f, cursor: pageParam, limit: PAGE_SIZE })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor ?? undefined,
  });

export const prefetchDeadGroups = (qc: QueryClient, b: string, f: { queue?: string; since?: string; until?: string }) =>
  qc.prefetchQuery({ queryKey: qk.deadGroups(b, f.queue, f), queryFn: () => service.deadGroups(b, ZDeadGroupsQuery.parse(f)) });

export const prefetchTask = (qc: QueryClient, b: string, id: string) =>
  qc.prefetchQuery({ queryKey: qk.task(b, id), queryFn: () => reads.readTask(b, id) });

export const prefetchDeadOne = (qc: QueryClient, b: string, id: string) =>
  qc.prefetchQuery({ queryKey: qk.deadOne(b, id), queryFn: () => reads.readDeadOne(b, id) });

export const prefetchWorkers = (qc: QueryClient, b: string) =>
  qc.prefetchQuery({ queryKey: qk.workers(b), queryFn: () => service.listWorkers(b) });

export const prefetchResults = (qc: QueryClient, b: string, f: ResultFilters) =>
  qc.prefetchInfiniteQuery({
    queryKey: qk.results(b, f),
    queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
      service.listResults(b, ZResultListQuery.parse({ ...f, cursor: pageParam, limit: PAGE_SIZE })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor ?? undefined,
  });
