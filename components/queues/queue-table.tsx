'use client';
import Link from 'next/link';
import { Fragment } from 'react';
import type { BrokerOverview, HeadBlock, WorkerInfo } from '@/lib/brokers/schema';
import { formatAge, formatCount, secondsSince, truncate } from '@/lib/client/format';
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
  if (overview.queues.length === 0) return <Empty>No queues have tasks or dead letters.</Empty>;
  return (
    <div className="overflow-x-auto">
      <table className="table-base min-w-[44rem]" data-testid="queue-table">
        <thead>
          <tr>
            <th>Queue</th>
            <th className="num">Ready</th>
            <th className="num">Scheduled</th>
            <th className="num">Running</th>
            <th className="num">Dead</th>
            <th className="num">Oldest waiting</th>
            <th className="num">Workers</th>
          </tr>
        </thead>
        <tbody>
          {overview.queues.map((q) => (
            <Fragment key={q.name}>
            <tr data-testid="queue-row" data-queue={q.name}>
              <td>
                <Link className="link font-medium" href={`${base}/queues/${encodeURIComponent(q.name)}`} title={q.name}>
                  {truncate(q.name, 60)}
                </Link>
              </td>
              <td className="num" data-testid="count-ready">{formatCount(q.ready, q.capped?.ready)}</td>
              <td className="num" data-testid="count-scheduled">{formatCount(q.scheduled, q.capped?.scheduled)}</td>
              <td className="num" data-testid="count-running">{formatCount(q.running, q.capped?.running)}</td>
              <td className="num" data-testid="count-dead">
                {q.dead ? (
                  <Link className="link" href={`${base}/dead?queue=${encodeURIComponent(q.name)}`}>
                    {formatCount(q.dead, q.capped?.dead)}
                  </Link>
                ) : (
                  formatCount(q.dead, q.capped?.dead)
                )}
              </td>
              <td className="num" data-testid="oldest-age" suppressHydrationWarning>
                {q.oldestReadyAt ? formatAge(secondsSince(q.oldestReadyAt, now)) : '—'}
              </td>
              <td className="num" data-testid="queue-workers">{workersOf(q.name, workers)}</td>
            </tr>
            {q.blockedBy ? <BlockedRow base={base} block={q.blockedBy} /> : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The queue's next claim is undecodable: every worker that takes it crashes, so say so loudly. */
function BlockedRow({ base, block }: { base: string; block: HeadBlock }) {
  return (
    <tr data-testid="queue-blocked">
      <td colSpan={7} className="bg-red-50 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
        <span className="font-semibold">Workers on this queue crash:</span> the next task (
        <Link className="link font-mono" href={`${base}/jobs/${encodeURIComponent(block.id)}`}>
          {truncate(block.id, 40)}
        </Link>
        , {truncate(block.task, 60)}) cannot be decoded by potatoq: <span className="font-mono text-xs">{truncate(block.reason, 160)}</span>. Revoke it to unblock the queue.
      </td>
    </tr>
  );
}
