'use client';
import Link from 'next/link';
import { revokeWords, taskWords } from '@/components/jobs/task-words';
import { Fragment } from 'react';
import { countOf, type BrokerOverview, type Capabilities, type HeadBlock, type WorkerInfo } from '@/lib/brokers/schema';
import { countTitle, formatAge, formatCount, secondsSince, truncate } from '@/lib/text/format';
import { visible } from '@/lib/text/visible';
import { useNow } from '@/components/ui/time';
import { Empty } from '@/components/ui/states';

/** Per-queue counts; unknown counts are "—". Queue names are text inside links we build. */
function workersOf(queue: string, workers: WorkerInfo[] | undefined): string {
  if (!workers) return '—';
  const on = workers.filter((w) => w.queues.includes(queue));
  const live = on.filter((w) => w.status === 'alive').length;
  // Dead workers (no heartbeat for long) are gone, not a warning sign on every queue they had.
  const stale = on.filter((w) => w.status === 'stale').length;
  return stale ? `${live} / ${stale} stale` : String(live);
}

export function QueueTable({ overview, workers }: { overview: BrokerOverview; workers?: WorkerInfo[] }) {
  const now = useNow();
  const base = `/brokers/${encodeURIComponent(overview.id)}`;
  const why = overview.unknownWhy ?? {};
  // The columns follow the states the broker's adapter declares.
  const states = overview.model?.states ?? [];
  if (overview.queues.length === 0) return <Empty>No queues have {taskWords(overview.model).nouns} or dead letters.</Empty>;
  return (
    <div className="overflow-x-auto">
      <table className="table-base min-w-[44rem]" data-testid="queue-table">
        <thead>
          <tr>
            <th>Queue</th>
            {states.map((st) => (
              <Th key={st.key} why={why[st.key]}>
                {st.label}
              </Th>
            ))}
            <Th why={why.dead}>Dead</Th>
            <Th why={why.oldest}>Oldest waiting</Th>
            <th className="num">Workers</th>
          </tr>
        </thead>
        <tbody>
          {overview.queues.map((q) => (
            <Fragment key={q.name}>
              <tr data-testid="queue-row" data-queue={q.name}>
                <td>
                  <Link className="link font-medium" href={`${base}/queues/${encodeURIComponent(q.name)}`} title={visible(q.name)}>
                    {truncate(q.name, 60)}
                  </Link>
                  {q.paused ? (
                    <span
                      className="ml-2 text-xs text-amber-700 dark:text-amber-400"
                      data-testid="queue-paused"
                      title="its workers take nothing from it"
                    >
                      paused
                    </span>
                  ) : null}
                </td>
                {states.map((st) => (
                  <td key={st.key} className="num" data-testid={`count-${st.key}`} title={countTitle(q.capped?.[st.key])}>
                    {formatCount(countOf(q, st.key), q.capped?.[st.key])}
                  </td>
                ))}
                <td className="num" data-testid="count-dead" title={countTitle(q.capped?.dead)}>
                  {q.dead || q.capped?.dead ? (
                    <Link className="link" href={`${base}/dead?queue=${encodeURIComponent(q.name)}`}>
                      {formatCount(q.dead, q.capped?.dead)}
                    </Link>
                  ) : (
                    formatCount(q.dead, q.capped?.dead)
                  )}
                </td>
                <td className="num" data-testid="oldest-age" suppressHydrationWarning>
                  {q.oldestWaitingAt ? formatAge(secondsSince(q.oldestWaitingAt, now)) : '—'}
                </td>
                <td className="num" data-testid="queue-workers">
                  {workersOf(q.name, workers)}
                </td>
              </tr>
              {q.blockedBy ? (
                <BlockedRow
                  base={base}
                  block={q.blockedBy}
                  columns={states.length + 4}
                  revoke={overview.capabilities.revoke}
                  model={overview.model}
                />
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
      <UnknownNotes
        why={why}
        labels={Object.fromEntries([...states.map((st) => [st.key, st.label]), ['dead', 'Dead'], ['oldest', 'Oldest waiting']])}
      />
    </div>
  );
}

/** A column header; a `*` and a tooltip when the broker cannot give that column per queue. */
function Th({ why, children }: { why?: string; children: string }) {
  return (
    <th className="num" title={why}>
      {children}
      {why ? <span aria-hidden="true">*</span> : null}
    </th>
  );
}

/** Says plainly, under the table, why a column shows "—" (e.g. RabbitMQ's delayed tasks). */
function UnknownNotes({ why, labels }: { why: Partial<Record<string, string>>; labels: Record<string, string> }) {
  const notes = Object.entries(why).filter((e): e is [string, string] => !!e[1]);
  if (!notes.length) return null;
  return (
    <ul
      className="grid gap-1 border-t border-zinc-100 px-4 py-2 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400"
      data-testid="count-notes"
    >
      {notes.map(([k, text]) => (
        <li key={k} data-testid={`count-note-${k}`}>
          {/* A note on a state this broker has no column for (it declares none) points at no "—": plain text. */}
          {k in labels ? <span className="font-medium">* {labels[k]} “—”:</span> : null} {text}.
        </li>
      ))}
    </ul>
  );
}

/** The queue's next claim is undecodable: every worker that takes it crashes, so say so loudly. */
function BlockedRow({
  base,
  block,
  columns,
  revoke,
  model,
}: {
  base: string;
  block: HeadBlock;
  columns: number;
  revoke: Capabilities['revoke'];
  model: BrokerOverview['model'];
}) {
  const verb = revokeWords(model).verb;
  const noun = taskWords(model).noun;
  return (
    <tr data-testid="queue-blocked">
      <td colSpan={columns} className="bg-red-50 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
        <span className="font-semibold">Workers on this queue crash:</span> the next {noun} (
        <Link className="link font-mono" href={`${base}/jobs/${encodeURIComponent(block.id)}`}>
          {truncate(block.id, 40)}
        </Link>
        , {block.task === null ? `${noun} name unknown` : truncate(block.task, 60)}) cannot be decoded by {block.system}:{' '}
        <span className="font-mono text-xs">{truncate(block.reason, 160)}</span>.{' '}
        {revoke.on ? (
          <span data-testid="queue-blocked-advice">{verb} it to unblock the queue.</span>
        ) : (
          <span data-testid="queue-blocked-advice">
            {verb} it to unblock the queue: the console cannot here ({revoke.why ?? `${verb.toLowerCase()} is off`}).
          </span>
        )}
      </td>
    </tr>
  );
}
