'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { BulkJobView, BulkOp } from '@/lib/bulk/schema';
import { STATE_LABEL, type BulkText } from './bulk-text';

/** Progress bar, counts and the pause/resume/cancel and rate controls of a running job (every system). */
export function BulkProgress({
  job,
  text,
  busy,
  onControl,
}: {
  job: BulkJobView;
  /** The action's words on this system (`bulkText`). */
  text: BulkText;
  busy: boolean;
  onControl: (op: BulkOp, extra?: { rate?: number | null }) => void;
}) {
  const p = job.progress;
  const pct = p.total === 0 ? 100 : Math.floor((p.processed / p.total) * 100);
  const [rate, setRate] = useState(job.rate === null ? '' : String(job.rate));
  const live = job.state === 'running' || job.state === 'paused';
  return (
    <div className="grid gap-2" data-testid="bulk-progress" data-state={job.state}>
      <div className="flex items-center justify-between text-xs">
        <span data-testid="bulk-state">{STATE_LABEL[job.state]}</span>
        <span data-testid="bulk-processed">
          {p.processed.toLocaleString()} of {p.total.toLocaleString()} ({pct}%)
        </span>
      </div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={p.processed}
        aria-label={`${text.verb} progress`}
        className="h-2 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800"
      >
        <div className="h-full bg-sky-600 transition-[width]" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {p.succeeded.toLocaleString()} {text.past} · {p.skipped.toLocaleString()} skipped · {p.failed.toLocaleString()} failed · batches of{' '}
        {job.rate === null ? job.batchSize : `up to ${Math.max(1, Math.min(job.batchSize, Math.floor(job.rate)))}`}
        {job.rate !== null ? ` at ${job.rate}/s` : ''}
      </p>
      {live ? (
        <div className="flex flex-wrap items-center gap-2">
          {job.state === 'running' ? (
            <Button size="sm" disabled={busy} onClick={() => onControl('pause')} data-testid="bulk-pause">
              Pause
            </Button>
          ) : (
            <Button size="sm" disabled={busy} onClick={() => onControl('resume')} data-testid="bulk-resume">
              Resume
            </Button>
          )}
          <Button size="sm" variant="danger" disabled={busy} onClick={() => onControl('cancel')} data-testid="bulk-cancel">
            Cancel the rest
          </Button>
          {live ? (
            <span className="ml-auto flex items-center gap-1 text-xs">
              <label htmlFor={`rate-${job.id}`}>Rate (per second)</label>
              <input
                id={`rate-${job.id}`}
                type="number"
                min={0.1}
                step="any"
                placeholder="max"
                value={rate}
                onChange={(e) => setRate(e.target.value)}
                className="w-20 rounded border border-zinc-300 px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900"
                data-testid="bulk-rate-live"
              />
              <Button
                size="sm"
                disabled={busy}
                onClick={() => onControl('rate', { rate: rate.trim() === '' ? null : Number(rate) })}
                data-testid="bulk-rate-set"
              >
                Set
              </Button>
            </span>
          ) : null}
        </div>
      ) : null}
      {job.interrupted && job.state === 'paused' ? (
        <p className="text-xs text-amber-700 dark:text-amber-400" data-testid="bulk-interrupted">
          The console running this job stopped at {job.interrupted.processed.toLocaleString()} of {p.total.toLocaleString()}
          {job.interrupted.inFlight
            ? `; the ${job.interrupted.inFlight.toLocaleString()} ids it had handed to the broker are reported failed (they may have been applied: check before retrying)`
            : ''}
          . Resume continues with the rest, from any console; cancel leaves them as they are.
        </p>
      ) : null}
      {live ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Pause and cancel take effect after the batch in flight. Closing this dialog leaves the job running.
        </p>
      ) : null}
    </div>
  );
}
