'use client';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { QUEUE_PAGE_SIZE } from '@/lib/brokers/queue-page';
import type {
  BrokerOverview,
  DeadDetail,
  DeadGroups,
  DeadSummary,
  Diagnosis,
  EnqueuePreview,
  Page,
  ResultSummary,
  TaskDetail,
  TaskSummary,
  WorkerInfo,
} from '@/lib/brokers/schema';
import { apiUrl, brokerPath, getJson, postJson } from './api';
import { PAGE_SIZE, qk, type DeadFilters, type ResultFilters, type TaskFilters } from './query-keys';
import { LIVE, usePollInterval } from './refresh';

// Live queries over the GET routes, keyed like the server prefetch (app/_lib/prefetch.ts).

export function useOverview(b: string) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: qk.overview(b),
    queryFn: ({ signal }) => getJson<BrokerOverview>(brokerPath(b, '/queues'), signal),
    refetchInterval,
    meta: LIVE,
  });
}

/** One page of a broker's queues searched by name (lib/brokers/queue-page.ts), polled like the
 *  overview; the previous page stays on screen while the next one loads. */
export function useQueuePage(b: string, search: string, offset: number, enabled: boolean) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: qk.queuePage(b, search, offset),
    queryFn: ({ signal }) => getJson<BrokerOverview>(apiUrl(brokerPath(b, '/queues'), { search, offset, limit: QUEUE_PAGE_SIZE }), signal),
    refetchInterval,
    placeholderData: keepPreviousData,
    enabled,
    meta: LIVE,
  });
}

const nextCursor = (last: Page<unknown>) => last.nextCursor ?? undefined;

export function useTasks(b: string, f: TaskFilters) {
  const refetchInterval = usePollInterval();
  return useInfiniteQuery({
    queryKey: qk.tasks(b, f),
    queryFn: ({ signal, pageParam }) =>
      getJson<Page<TaskSummary>>(apiUrl(brokerPath(b, '/tasks'), { ...f, cursor: pageParam, limit: PAGE_SIZE }), signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    refetchInterval,
    meta: LIVE,
  });
}

export function useTask(b: string, id: string) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: qk.task(b, id),
    queryFn: ({ signal }) => getJson<TaskDetail>(brokerPath(b, `/tasks/${encodeURIComponent(id)}`), signal),
    refetchInterval,
    meta: LIVE,
    retry: false,
  });
}

export function useDeadList(b: string, f: DeadFilters) {
  const refetchInterval = usePollInterval();
  return useInfiniteQuery({
    queryKey: qk.dead(b, f),
    queryFn: ({ signal, pageParam }) =>
      getJson<Page<DeadSummary>>(apiUrl(brokerPath(b, '/dead'), { ...f, cursor: pageParam, limit: PAGE_SIZE }), signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    refetchInterval,
    meta: LIVE,
  });
}

/** The groups of the dead letters (of `queue`) that died in the range (its text: "1h" is
 *  resolved by the server at each poll). */
export type TimeRangeText = { since?: string; until?: string };
export function useDeadGroups(b: string, queue?: string, range: TimeRangeText = {}) {
  const refetchInterval = usePollInterval();
  const { since, until } = range;
  return useQuery({
    queryKey: qk.deadGroups(b, queue, { since, until }),
    queryFn: ({ signal }) => getJson<DeadGroups>(apiUrl(brokerPath(b, '/dead/groups'), { queue, since, until }), signal),
    refetchInterval,
    meta: LIVE,
  });
}

export function useDead(b: string, id: string) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: qk.deadOne(b, id),
    queryFn: ({ signal }) => getJson<DeadDetail>(brokerPath(b, `/dead/${encodeURIComponent(id)}`), signal),
    refetchInterval,
    meta: LIVE,
    retry: false,
  });
}

export function useWorkers(b: string, enabled = true) {
  const refetchInterval = usePollInterval();
  return useQuery({
    enabled,
    queryKey: qk.workers(b),
    queryFn: ({ signal }) => getJson<{ workers: WorkerInfo[] }>(brokerPath(b, '/workers'), signal).then((r) => r.workers),
    refetchInterval,
    meta: LIVE,
  });
}

export function useResults(b: string, f: ResultFilters) {
  const refetchInterval = usePollInterval();
  return useInfiniteQuery({
    queryKey: qk.results(b, f),
    queryFn: ({ signal, pageParam }) =>
      getJson<Page<ResultSummary>>(apiUrl(brokerPath(b, '/results'), { ...f, cursor: pageParam, limit: PAGE_SIZE }), signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    refetchInterval,
    meta: LIVE,
  });
}

/** Task names the broker has shown, and the queues each was seen in (null: the system does not say). */
export function useTaskNames(b: string) {
  return useQuery({
    queryKey: qk.taskNames(b),
    queryFn: ({ signal }) => getJson<{ names: string[]; seenIn: Record<string, string[]> | null }>(brokerPath(b, '/task-names'), signal),
    staleTime: 60_000,
  });
}

/** The message the broker's adapter would write for this request (no write): the enqueue form's
 *  live preview and command line. Off while the form fails its own checks. */
export function useEnqueuePreview(b: string, request: Record<string, unknown>, enabled: boolean) {
  const body = JSON.stringify(request);
  return useQuery({
    queryKey: ['enqueue-preview', b, body],
    queryFn: ({ signal }) => postJson<EnqueuePreview>(brokerPath(b, '/enqueue/preview'), request, signal),
    enabled,
    retry: false,
    staleTime: Infinity,
  });
}

/** Stuck work on one broker (the adapter's diagnosis), polled like the overview. */
export function useDiagnosis(b: string) {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: qk.diagnosis(b),
    queryFn: ({ signal }) => getJson<Diagnosis>(brokerPath(b, '/diagnosis'), signal),
    refetchInterval,
    meta: LIVE,
  });
}
