import Link from 'next/link';
import type { ActionResult } from '@/lib/brokers/schema';
import { PAST } from '@/lib/client/outcome-toasts';
import { visible } from '@/lib/text/visible';

/** Per-id outcome of a bulk action: how many succeeded, what had been done before (nothing to
 *  retry), and each failure with its reason. `past`: the system's word for what was done
 *  ("cancelled"), where it has its own. */
export function OutcomePanel({ result, past }: { result: ActionResult; past?: string }) {
  const ok = result.succeeded.length;
  const before = result.failed.filter((f) => f.outcome === 'already');
  const failed = result.failed.filter((f) => f.outcome !== 'already');
  // Done under another id (a job the target system numbered itself): which, and how.
  const renamed = result.succeeded.filter((o) => o.taskId && o.taskId !== o.id).slice(0, 50);
  return (
    <div data-testid="action-outcome" role="status" className="grid gap-2 text-sm">
      <p>
        <span data-testid="outcome-succeeded" className="font-semibold text-emerald-700 dark:text-emerald-400">
          {ok} of {result.requested} {past ?? PAST[result.action]}
        </span>
        {renamed.length ? (
          <ul
            className="max-h-40 overflow-auto rounded-md border border-zinc-200 text-xs dark:border-zinc-800"
            data-testid="outcome-new-tasks"
          >
            {renamed.map((o) => (
              <li
                key={o.id}
                className="grid gap-0.5 border-b border-zinc-100 px-3 py-1.5 last:border-0 dark:border-zinc-900"
                data-testid="outcome-new-task"
                data-id={o.id}
              >
                <span className="font-mono break-all">
                  {visible(o.id)} → {visible(o.taskId ?? '')}
                </span>
                <span className="text-zinc-600 dark:text-zinc-300">{visible(o.message)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {before.length ? (
          <span data-testid="outcome-already-count" className="ml-2 font-semibold text-zinc-600 dark:text-zinc-300">
            {before.length} done before
          </span>
        ) : null}
        {failed.length ? (
          <span data-testid="outcome-failed-count" className="ml-2 font-semibold text-red-700 dark:text-red-400">
            {failed.length} failed
          </span>
        ) : null}
      </p>
      {result.campaign ? (
        <p>
          <Link className="link" href={`/campaigns/${encodeURIComponent(result.campaign)}`} data-testid="outcome-campaign">
            Follow what becomes of them
          </Link>{' '}
          <span className="text-zinc-600 dark:text-zinc-400">(what succeeded, failed or still waits: the campaign page)</span>
        </p>
      ) : null}
      {before.length ? (
        <ul className="max-h-40 overflow-auto rounded-md border border-zinc-200 text-xs dark:border-zinc-800" data-testid="outcome-already">
          {before.map((f) => (
            <li key={f.id} className="grid gap-0.5 border-b border-zinc-100 px-3 py-1.5 last:border-0 dark:border-zinc-900" data-id={f.id}>
              <span className="font-mono break-all">{visible(f.id)}</span>
              <span className="text-zinc-600 dark:text-zinc-300">{visible(f.message)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {failed.length ? (
        <ul className="max-h-60 overflow-auto rounded-md border border-red-200 text-xs dark:border-red-900" data-testid="outcome-failed">
          {failed.map((f) => (
            <li
              key={f.id}
              className="grid gap-0.5 border-b border-red-100 px-3 py-1.5 last:border-0 dark:border-red-950"
              data-testid="outcome-failed-item"
              data-id={f.id}
            >
              <span className="font-mono break-all">{visible(f.id)}</span>
              <span className="text-red-700 dark:text-red-300">
                {f.outcome}: {visible(f.message)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
