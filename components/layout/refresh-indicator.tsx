'use client';
import { useIsFetching } from '@tanstack/react-query';
import { POLL_MS, useRefresh } from '@/lib/client/refresh';

export function RefreshIndicator() {
  const { paused, setPaused } = useRefresh();
  const fetching = useIsFetching() > 0;
  return (
    <div className="flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="refresh-indicator">
      <span
        aria-hidden
        className={`inline-block h-2 w-2 rounded-full ${paused ? 'bg-zinc-400' : fetching ? 'animate-pulse bg-sky-500' : 'bg-emerald-500'}`}
      />
      <span data-testid="refresh-state">{paused ? 'Paused' : `Live · every ${POLL_MS / 1000}s`}</span>
      <button
        type="button"
        onClick={() => setPaused(!paused)}
        data-testid="refresh-toggle"
        aria-pressed={paused}
        className="rounded px-1.5 py-0.5 font-medium text-zinc-700 hover:bg-zinc-200 dark:text-zinc-200 dark:hover:bg-zinc-800"
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
    </div>
  );
}
