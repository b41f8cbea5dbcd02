'use client';
import { useQueries, useQueryClient, type QueryState } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { BrokerOverview, DeadGroups, Diagnosis } from '@/lib/brokers/schema';
import { findingCount } from '@/lib/brokers/dto';
import { apiUrl, brokerPath, getJson } from '@/lib/client/api';
import { readLooked, writeLooked, type Looked } from '@/lib/client/looked';
import { lastHourOf, summarise, type BrokerSignals, type OverviewSummary } from '@/lib/client/overview-summary';
import { qk } from '@/lib/client/query-keys';
import { useRefresh } from '@/lib/client/refresh';
import { trendKeys } from '@/lib/client/trends';
import type { DeadTrend } from '@/lib/trends/schema';
import { useHydrated } from '@/components/ui/use-hydrated';
import { SummaryLine } from './summary-line';

/** Error fingerprints change slowly and grouping reads many letters: polled once a minute. */
const GROUPS_POLL_MS = 60_000;

const BoardContext = createContext<OverviewSummary | null>(null);

type State<T> = QueryState<T, Error> | undefined;

function signalsOf(
  id: string,
  o: State<BrokerOverview>,
  d: State<Diagnosis>,
  t: State<DeadTrend>,
  g: DeadGroups | undefined,
): BrokerSignals {
  return {
    id,
    down: !!o?.error,
    readMs: o?.data ? (o.data.readMs ?? 0) : undefined,
    stuck: d?.data && !d.error ? findingCount(d.data) : undefined,
    deadLastHour: t?.data ? lastHourOf(t.data) : undefined,
    fingerprints: g?.groups.map((x) => x.fingerprint),
  };
}

// Stable, so useQueries hands back the same array while no group list changed.
const dataOf = (results: Array<{ data?: DeadGroups }>) => results.map((r) => r.data);

/** The fingerprints per broker, fetched for the summary only (the cards do not show groups). */
function useFingerprints(brokers: readonly string[]): Array<DeadGroups | undefined> {
  const { paused } = useRefresh();
  return useQueries({
    queries: brokers.map((b) => ({
      queryKey: qk.deadGroups(b),
      queryFn: ({ signal }: { signal: AbortSignal }) => getJson<DeadGroups>(apiUrl(brokerPath(b, '/dead/groups'), {}), signal),
      refetchInterval: paused ? (false as const) : GROUPS_POLL_MS,
      staleTime: 30_000,
      retry: false,
    })),
    combine: dataOf,
  });
}

/** Reads what the cards polled (overview, stuck work, dead-letter trend) straight from the
 *  query cache, without fetching again; recomputed on every change of the cache. */
function useSummary(brokers: readonly string[], groups: Array<DeadGroups | undefined>, seen: Looked | null): OverviewSummary {
  const cache = useQueryClient().getQueryCache();
  const compute = useMemo(
    () => () => {
      const state = <T,>(key: readonly unknown[]) => cache.find<T>({ queryKey: key, exact: true })?.state as State<T>;
      const signals = brokers.map((b, i) =>
        signalsOf(
          b,
          state<BrokerOverview>(qk.overview(b)),
          state<Diagnosis>(qk.diagnosis(b)),
          state<DeadTrend>(trendKeys.dead(b, 'day')),
          groups[i],
        ),
      );
      return summarise(signals, seen?.fingerprints ?? null);
    },
    [brokers, groups, seen, cache],
  );
  const [summary, setSummary] = useState<OverviewSummary>(() =>
    summarise(
      brokers.map((id) => ({ id, down: false })),
      null,
    ),
  );
  useEffect(() => {
    let last = '';
    const update = () => {
      const next = compute();
      const key = JSON.stringify(next);
      if (key !== last) {
        last = key;
        setSummary(next);
      }
    };
    update();
    return cache.subscribe(update);
  }, [cache, compute]);
  return summary;
}

/** The overview's summary line and its cards, troubled brokers first (by CSS order: each card
 *  streams in on its own, so the board moves them rather than waiting for all). */
export function OverviewBoard({ brokers, children }: { brokers: string[]; children: ReactNode }) {
  // The last look is read once per visit: what this visit shows is compared with the visit before.
  // (No storage on the server: what shows of it waits for hydration, so both renders agree.)
  const [seen] = useState<Looked | null>(() => (typeof window === 'undefined' ? null : readLooked(window.localStorage)));
  const hydrated = useHydrated();
  const groups = useFingerprints(brokers);
  const summary = useSummary(brokers, groups, seen);
  useEffect(() => {
    const current: Record<string, string[]> = {};
    brokers.forEach((b, i) => {
      const g = groups[i];
      if (g) current[b] = g.groups.map((x) => x.fingerprint);
    });
    if (Object.keys(current).length) writeLooked(window.localStorage, Date.now(), current);
  }, [brokers, groups]);
  return (
    <BoardContext.Provider value={summary}>
      <SummaryLine summary={summary} lookedAt={hydrated ? (seen?.at ?? null) : null} />
      <div className="flex flex-col gap-6" data-testid="overview-board">
        {children}
      </div>
    </BoardContext.Provider>
  );
}

/** One card's place on the board, and its health for tests and styles. */
export function RankedSlot({ brokerId, children }: { brokerId: string; children: ReactNode }) {
  const s = useContext(BoardContext);
  const place = s?.order[brokerId];
  return (
    <div
      style={place !== undefined ? { order: place } : undefined}
      data-testid="broker-slot"
      data-broker-slot={brokerId}
      data-health={s?.health[brokerId]}
    >
      {children}
    </div>
  );
}
