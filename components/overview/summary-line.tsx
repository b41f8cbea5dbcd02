'use client';
import type { ReactNode } from 'react';
import type { OverviewSummary } from '@/lib/client/overview-summary';

function Part({ n, children, tone, testId }: { n: number | null; children: ReactNode; tone?: 'red' | 'amber'; testId: string }) {
  const colour = n && tone === 'red' ? 'text-red-700 dark:text-red-400' : n && tone === 'amber' ? 'text-amber-700 dark:text-amber-400' : '';
  return (
    <span data-testid={testId} data-count={n ?? ''} className={colour}>
      <strong className="tabular-nums">{n === null ? '—' : n.toLocaleString()}</strong> {children}
    </span>
  );
}

/** What matters first: how many brokers are up, slow or down, stuck work, deaths in the last
 *  hour and error fingerprints this browser has not seen before. "—": no broker said yet. */
export function SummaryLine({ summary: s, lookedAt }: { summary: OverviewSummary; lookedAt: number | null }) {
  return (
    <p
      className="mb-4 flex flex-wrap items-baseline gap-x-4 gap-y-1 rounded-md border border-zinc-200 bg-white px-4 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="overview-summary"
    >
      <Part n={s.up} testId="summary-up">
        up
      </Part>
      <Part n={s.slow} tone="amber" testId="summary-slow">
        slow
      </Part>
      <Part n={s.down} tone="red" testId="summary-down">
        down
      </Part>
      {s.unknown ? (
        <Part n={s.unknown} testId="summary-unknown">
          not answered yet
        </Part>
      ) : null}
      <Part n={s.stuck} tone="amber" testId="summary-stuck">
        stuck-work flags
      </Part>
      <Part n={s.deadLastHour} tone="red" testId="summary-dead-hour">
        dead letters in the last hour
      </Part>
      {lookedAt === null ? (
        <span data-testid="summary-fingerprints" data-count="" className="text-zinc-500 dark:text-zinc-400">
          error fingerprints: first look from this browser
        </span>
      ) : (
        <Part n={s.newFingerprints} tone="amber" testId="summary-fingerprints">
          new error fingerprint{s.newFingerprints === 1 ? '' : 's'} since you last looked (
          {new Date(lookedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC)
        </Part>
      )}
    </p>
  );
}
