import Link from 'next/link';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { isBulkMove, type BulkJobView } from '@/lib/bulk/schema';
import type { BulkText } from './bulk-text';
import { visible } from '@/lib/text/visible';

function OutcomeList({ items, tone, testId }: { items: ActionOutcome[]; tone: 'amber' | 'red'; testId: string }) {
  const border = tone === 'red' ? 'border-red-200 dark:border-red-900' : 'border-amber-200 dark:border-amber-900';
  return (
    <ul className={`max-h-48 overflow-auto rounded-md border text-xs ${border}`} data-testid={testId}>
      {items.map((f) => (
        <li
          key={f.id}
          className="grid gap-0.5 border-b border-zinc-100 px-3 py-1.5 last:border-0 dark:border-zinc-800"
          data-testid={`${testId}-item`}
          data-id={f.id}
        >
          <span className="font-mono break-all">{visible(f.id)}</span>
          <span>
            {f.outcome}: {visible(f.message)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The end of a job: how many were done, skipped (changed since the snapshot), failed, not reached. */
export function BulkOutcome({ job, text: t }: { job: BulkJobView; text: BulkText }) {
  const p = job.progress;
  const notReached = p.total - p.processed;
  return (
    <div className="grid gap-2 text-sm" role="status" data-testid="bulk-outcome" data-state={job.state}>
      <p>
        <span className="font-semibold text-emerald-700 dark:text-emerald-400" data-testid="bulk-succeeded">
          {p.succeeded.toLocaleString()} of {p.total.toLocaleString()} {t.past}
        </span>
        {p.skipped ? (
          <span className="ml-2 font-semibold text-amber-700 dark:text-amber-400" data-testid="bulk-skipped">
            {p.skipped.toLocaleString()} skipped
          </span>
        ) : null}
        {p.failed ? (
          <span className="ml-2 font-semibold text-red-700 dark:text-red-400" data-testid="bulk-failed">
            {p.failed.toLocaleString()} failed
          </span>
        ) : null}
        {notReached ? (
          <span className="ml-2 text-zinc-600 dark:text-zinc-400" data-testid="bulk-not-reached">
            {notReached.toLocaleString()} not reached ({job.state}), left as they were
          </span>
        ) : null}
      </p>
      {(job.action === 'replay' || isBulkMove(job.action)) && p.succeeded > 0 ? (
        <p>
          <Link className="link" href={`/campaigns?${new URLSearchParams({ job: job.id }).toString()}`} data-testid="bulk-campaign">
            Follow what becomes of them
          </Link>{' '}
          <span className="text-zinc-600 dark:text-zinc-400">(its roll-up is live while the job runs)</span>
        </p>
      ) : null}
      {job.error ? (
        <p className="text-xs text-red-700 dark:text-red-300" data-testid="bulk-error">
          Stopped: {job.error.code}: {job.error.message}
        </p>
      ) : null}
      {p.skipped ? (
        <>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Skipped: changed since the snapshot (gone, or now running); nothing was done to them.
          </p>
          <OutcomeList items={job.skippedOutcomes} tone="amber" testId="bulk-skipped-list" />
        </>
      ) : null}
      {p.failed ? <OutcomeList items={job.failedOutcomes} tone="red" testId="bulk-failed-list" /> : null}
      {job.outcomesTruncated ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Lists show the first 1,000; the API returns them all with ?full=1.</p>
      ) : null}
    </div>
  );
}
