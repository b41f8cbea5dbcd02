'use client';
import { useEffect, useState } from 'react';
import { formatLocal, formatRelative, formatUtc } from '@/lib/text/format';

/** Re-renders every second so relative ages stay true between polls. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

/** Relative age with the UTC time as a tooltip (for lists). */
export function Ago({ iso }: { iso: string | null }) {
  const now = useNow();
  return (
    <time dateTime={iso ?? undefined} title={iso ? formatUtc(iso) : undefined} suppressHydrationWarning className="whitespace-nowrap">
      {formatRelative(iso, now)}
    </time>
  );
}

/** UTC, local and relative, for detail pages. */
export function FullTime({ iso }: { iso: string | null }) {
  const now = useNow();
  if (!iso) return <span>—</span>;
  return (
    <span className="inline-flex flex-col">
      <time dateTime={iso} className="font-mono text-xs">
        {formatUtc(iso)}
      </time>
      <span className="text-xs text-zinc-500 dark:text-zinc-400" suppressHydrationWarning>
        {formatLocal(iso)} · {formatRelative(iso, now)}
      </span>
    </span>
  );
}
