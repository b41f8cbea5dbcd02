'use client';
import { taskWords } from '@/components/jobs/task-words';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { ErrorBox } from '@/components/ui/states';
import {
  findingCount,
  flagsForTask,
  STUCK_CHECKS,
  type Diagnosis,
  type StuckCheck,
  type StuckFlag,
  type StuckLink,
} from '@/lib/brokers/dto';
import { describeError } from '@/lib/client/api';
import { useDiagnosis, useOverview } from '@/lib/client/hooks';
import { useState } from 'react';
import { visible } from '@/lib/text/visible';

// Stuck work as the broker's adapter diagnosed it: each flag names its cause, what the console
// can do and what it cannot, and links to where to act. No system's words here: they are the
// adapter's.

const LABEL: Record<StuckCheck, string> = {
  'worker-lost': 'Worker gone',
  'over-time-limit': 'Past its time limit',
  'no-consumer': 'Nobody consumes',
  overdue: 'Overdue',
  poison: 'Crashes every worker',
};

function hrefOf(brokerId: string, l: StuckLink): string {
  const b = `/brokers/${encodeURIComponent(brokerId)}`;
  switch (l.page) {
    case 'task':
      return `${b}/jobs/${encodeURIComponent(l.id)}`;
    case 'queue':
      return `${b}/queues/${encodeURIComponent(l.queue)}?state=${encodeURIComponent(l.state)}`;
    case 'workers':
      return `${b}/workers`;
    default: {
      const never: never = l;
      return String(never);
    }
  }
}

// The cause already names the queue; the link says where it goes (its tab), not the name again.
const linkText = (l: StuckLink): string =>
  l.page === 'task' ? 'Open the task' : l.page === 'queue' ? `Open the queue's ${l.state} tasks` : 'Open the workers';

function Flag({ brokerId, f, here }: { brokerId: string; f: StuckFlag; here?: boolean }) {
  return (
    <li className="grid gap-1 px-4 py-2 text-sm" data-testid="stuck-flag" data-check={f.check} data-queue={f.queue ?? ''}>
      <p>
        <Badge tone={f.check === 'poison' || f.check === 'worker-lost' ? 'red' : 'yellow'}>{LABEL[f.check]}</Badge>{' '}
        <span data-testid="stuck-cause">{visible(f.cause)}</span>
      </p>
      <p className="text-xs text-zinc-600 dark:text-zinc-300" data-testid="stuck-can">
        <span className="font-medium">The console can:</span> {visible(f.can)}
      </p>
      <p className="text-xs text-zinc-600 dark:text-zinc-300" data-testid="stuck-cannot">
        <span className="font-medium">It cannot:</span> {visible(f.cannot)}
      </p>
      {here && f.link.page === 'task' ? null : (
        <p className="text-xs">
          <Link className="link" href={hrefOf(brokerId, f.link)} data-testid="stuck-link">
            {linkText(f.link)}
          </Link>
        </p>
      )}
    </li>
  );
}

function Unknown({ d }: { d: Diagnosis }) {
  if (!d.unknown.length && !d.notes.length) return null;
  return (
    <ul className="grid gap-0.5 px-4 pb-3 text-xs text-zinc-500 dark:text-zinc-400" data-testid="stuck-unknown">
      {d.unknown.map((u) => (
        <li key={`u-${u.check}`} data-check={u.check}>
          Not checked here ({LABEL[u.check].toLowerCase()}): {visible(u.why)}.
        </li>
      ))}
      {d.notes.map((n, i) => (
        <li key={`n-${n.check}-${i}`}>
          {LABEL[n.check]}: {n.text}.
        </li>
      ))}
    </ul>
  );
}

/** "Show all N": the findings past the first `shown`, and those the server did not list. */
function More({ d, shown, open, onOpen }: { d: Diagnosis; shown: number; open: boolean; onOpen: () => void }) {
  const hidden = open ? 0 : Math.max(0, d.flags.length - shown);
  const omitted = d.flagsOmitted ?? 0;
  if (!hidden && !omitted) return null;
  return (
    <p className="px-4 py-2 text-xs text-zinc-600 dark:text-zinc-300" data-testid="stuck-more">
      {hidden ? (
        <button type="button" className="link" onClick={onOpen}>
          Show {hidden} more {hidden === 1 ? 'finding' : 'findings'}
        </button>
      ) : null}
      {hidden && omitted ? ' · ' : null}
      {omitted ? `${omitted} more not listed here (the first ${d.flags.length} are, in the order of the checks)` : null}
    </p>
  );
}

/** The broker's stuck work, for the overview card and the broker page: nothing at all when
 *  there is none (the unknown checks are then said in one line). `limit` findings are listed
 *  until the operator asks for the rest, so one broker's thousand findings never bury a card. */
export function StuckPanel({ brokerId, limit = Infinity }: { brokerId: string; limit?: number }) {
  const q = useDiagnosis(brokerId);
  const [open, setOpen] = useState(false);
  // A scheduled task is potatoq's word; SDJ's is a delayed job: the system's noun, neutrally.
  const nouns = taskWords(useOverview(brokerId).data?.model).nouns;
  if (q.error && !q.data) {
    const e = describeError(q.error);
    return (
      <div className="px-4 pb-3" data-testid="stuck-panel" data-state="error">
        <ErrorBox code={e.code} message={`stuck-work check: ${e.message}`} />
      </div>
    );
  }
  const d = q.data;
  if (!d) return null;
  return (
    <section
      className={d.flags.length ? 'border-t border-amber-200 bg-amber-50/50 dark:border-amber-900 dark:bg-amber-950/20' : ''}
      data-testid="stuck-panel"
      data-state={d.flags.length ? 'stuck' : 'clear'}
      aria-label="Stuck work"
    >
      {d.flags.length ? (
        <>
          <h3 className="px-4 pt-3 text-sm font-semibold" data-testid="stuck-title">
            Stuck work: {findingCount(d)} {findingCount(d) === 1 ? 'finding' : 'findings'}
          </h3>
          <ul className="divide-y divide-amber-100 dark:divide-amber-900/50">
            {(open ? d.flags : d.flags.slice(0, limit)).map((f, i) => (
              <Flag key={`${f.check}-${f.queue}-${i}`} brokerId={brokerId} f={f} />
            ))}
          </ul>
          <More d={d} shown={limit} open={open} onOpen={() => setOpen(true)} />
        </>
      ) : null}
      <details className="px-0">
        <summary className="cursor-pointer px-4 py-1 text-xs text-zinc-500 dark:text-zinc-400">
          {d.flags.length
            ? 'What was not checked'
            : d.unknown.length >= STUCK_CHECKS.length
              ? 'Stuck work is not checked on this broker'
              : 'No stuck work found'}{' '}
          ({nouns} held for a later time count as overdue {d.overdueSeconds} s past it)
        </summary>
        <Unknown d={d} />
      </details>
    </section>
  );
}

/** The flags that concern one task (its own, and its queue's when it waits there). */
export function TaskStuckFlags({
  brokerId,
  task,
  noun = 'task',
}: {
  brokerId: string;
  task: { id: string; queue: string; state: string };
  /** The system's word for a task ("job"). */
  noun?: string;
}) {
  const q = useDiagnosis(brokerId);
  const flags = q.data ? flagsForTask(q.data, task) : [];
  if (!flags.length) return null;
  return (
    <section
      className="border-t border-amber-200 bg-amber-50/50 dark:border-amber-900 dark:bg-amber-950/20"
      data-testid="task-stuck"
      aria-label={`Why this ${noun} is stuck`}
    >
      <h3 className="px-4 pt-3 text-sm font-semibold">Why this {noun} may be stuck</h3>
      <ul>
        {flags.map((f, i) => (
          <Flag key={`${f.check}-${i}`} brokerId={brokerId} f={f} here />
        ))}
      </ul>
    </section>
  );
}
