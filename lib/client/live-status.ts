// How live a page's data is, from the react-query cache: the time of the oldest data on screen
// ("as of"), and which brokers stopped answering while their last good data stays shown.
import { describeError } from './api';

/** What the status needs of one cached query (react-query's Query, narrowed for tests). */
export interface LiveQuery {
  queryKey: readonly unknown[];
  /** Declared live by its hook (`meta: LIVE`): polled while not paused. */
  live: boolean;
  /** Components on screen reading it. */
  observers: number;
  hasData: boolean;
  dataUpdatedAt: number;
  errorUpdatedAt: number;
  error: unknown;
}

export interface StaleBroker {
  brokerId: string;
  /** When its last good data was read (ms since the epoch). */
  since: number;
  error: { code: string; message: string };
}

export interface LiveStatus {
  /** The oldest data on screen was read then (ms); null while nothing live is shown. */
  asOf: number | null;
  /** Brokers whose latest poll failed after good data: oldest first, one entry per broker. */
  stale: StaleBroker[];
}

export function liveStatus(queries: readonly LiveQuery[]): LiveStatus {
  let asOf: number | null = null;
  const stale = new Map<string, StaleBroker>();
  for (const q of queries) {
    if (!q.live || q.observers === 0 || !q.hasData) continue;
    asOf = asOf === null ? q.dataUpdatedAt : Math.min(asOf, q.dataUpdatedAt);
    // The data stays as it was: only a failure after it makes it stale.
    if (q.error == null || q.errorUpdatedAt < q.dataUpdatedAt) continue;
    const brokerId = q.queryKey[0] === 'broker' && typeof q.queryKey[1] === 'string' ? q.queryKey[1] : '';
    const seen = stale.get(brokerId);
    if (!seen || q.dataUpdatedAt < seen.since) stale.set(brokerId, { brokerId, since: q.dataUpdatedAt, error: describeError(q.error) });
  }
  return { asOf, stale: [...stale.values()].sort((a, b) => a.since - b.since) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "14:02:31" in UTC. */
export const clockUtc = (ms: number): string => {
  const d = new Date(ms);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

/** "15:02:31 CET": the viewer's own wall clock with its zone. */
export const clockLocal = (ms: number): string =>
  new Date(ms).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    timeZoneName: 'short',
  });
