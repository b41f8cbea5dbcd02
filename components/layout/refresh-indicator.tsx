'use client';
import { useIsFetching } from '@tanstack/react-query';
import { POLL_MS, useRefresh } from '@/lib/client/refresh';

/** Whether lists and counts refresh on their own; one button shows it and pauses or resumes it. */
export function RefreshIndicator() {
  const { paused, setPaused } = useRefresh();
  const fetching = useIsFetching() > 0;
  const seconds = POLL_MS / 1000;
  return (
    <button
      type="button"
      onClick={() => setPaused(!paused)}
      data-testid="refresh-indicator"
      aria-pressed={paused}
      title={
        paused ? 'Paused: click to refresh lists and counts again' : `Lists and counts refresh every ${seconds} seconds: click to pause`
      }
      className="flex items-center gap-1.5 rounded px-1.5 py-0.5 text-xs text-zinc-500 hover:bg-zinc-200 dark:text-zinc-400 dark:hover:bg-zinc-800"
    >
      <span
        aria-hidden
        className={`inline-block h-2 w-2 rounded-full ${paused ? 'bg-zinc-400' : fetching ? 'animate-pulse bg-sky-500' : 'bg-emerald-500'}`}
      />
      <span data-testid="refresh-state">{paused ? 'Paused' : `Live · ${seconds}s`}</span>
      <span data-testid="refresh-toggle" className="font-medium text-zinc-700 dark:text-zinc-200">
        {paused ? 'Resume' : 'Pause'}
      </span>
    </button>
  );
}
