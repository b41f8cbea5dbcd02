'use client';
import { useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';
import { clockLocal, clockUtc, liveStatus, type LiveStatus } from '@/lib/client/live-status';
import { useRefresh } from '@/lib/client/refresh';

const NONE: LiveStatus = { asOf: null, stale: [] };

const narrow = (q: Query) => ({
  queryKey: q.queryKey,
  live: q.meta?.live === true,
  observers: q.getObserversCount(),
  hasData: q.state.data !== undefined,
  dataUpdatedAt: q.state.dataUpdatedAt,
  errorUpdatedAt: q.state.errorUpdatedAt,
  error: q.state.error,
});

/** The page's live data as the query cache holds it, recomputed whenever a query changes. */
function useLiveStatus(): LiveStatus {
  const cache = useQueryClient().getQueryCache();
  const [status, setStatus] = useState<LiveStatus>(NONE);
  useEffect(() => {
    let last = '';
    const update = () => {
      const next = liveStatus(cache.getAll().map(narrow));
      const key = JSON.stringify(next);
      if (key !== last) {
        last = key;
        setStatus(next);
      }
    };
    update();
    return cache.subscribe(update);
  }, [cache]);
  return status;
}

/**
 * "as of 14:02:31 UTC · 15:02:31 CET": when the oldest data on the page was read, and a red
 * mark per broker whose polls fail while its last good data stays on screen. Shown once the
 * page runs in the browser (the clock is the viewer's).
 */
export function LiveStatusLine() {
  const hydrated = useHydrated();
  const { asOf, stale } = useLiveStatus();
  const { paused } = useRefresh();
  if (!hydrated || asOf === null) return null;
  return (
    <span className="flex items-center gap-2 text-xs" data-testid="live-status" data-as-of={new Date(asOf).toISOString()}>
      <span className="text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="as-of" title={new Date(asOf).toISOString()}>
        {paused ? 'paused, ' : ''}as of {clockUtc(asOf)} UTC · {clockLocal(asOf)}
      </span>
      {stale.map((s) => (
        <span
          key={s.brokerId}
          role="status"
          data-testid="stale-mark"
          data-stale-broker={s.brokerId}
          title={`${s.error.code}: ${s.error.message}`}
          className="max-w-[28rem] truncate rounded bg-red-100 px-1.5 py-0.5 font-medium text-red-800 dark:bg-red-950 dark:text-red-300"
        >
          {s.brokerId ? `${s.brokerId}: ` : ''}stale since {clockUtc(s.since)} UTC: {s.error.message}
        </span>
      ))}
    </span>
  );
}
