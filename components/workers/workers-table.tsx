'use client';
import Link from 'next/link';
import { ExportLinks } from '@/components/ui/export-links';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { describeError } from '@/lib/client/api';
import { formatAge, truncate } from '@/lib/text/format';
import { useWorkers } from '@/lib/client/hooks';
import { WorkerStatus } from './worker-status';
import type { WorkersWords } from './words';
import { workerQueueHref } from './links';
import type { StateDecl } from '@/lib/brokers/schema';
import { visible } from '@/lib/text/visible';

/** The broker's workers as its system knows them, in its words (`words`, from its declaration);
 *  a worker's queues link to the tab of the work workers hold (`states`: the declared ones). */
export function WorkersTable({ brokerId, words, states }: { brokerId: string; words: WorkersWords; states: readonly StateDecl[] }) {
  const q = useWorkers(brokerId);
  // A system that keeps no worker registry answers Unsupported with why: that is not a failure.
  if (q.error && !q.data && describeError(q.error).code === 'Unsupported') return <Empty>{describeError(q.error).message}</Empty>;
  if (q.error && !q.data)
    return (
      <div className="p-4">
        <ErrorBox {...describeError(q.error)} />
      </div>
    );
  if (!q.data) return <Loading />;
  if (q.data.length === 0) return <Empty>{words.empty}</Empty>;
  const base = `/brokers/${encodeURIComponent(brokerId)}`;
  return (
    <div className="overflow-x-auto">
      <div className="flex justify-end px-4 pt-2">
        <ExportLinks brokerId={brokerId} list="workers" noun="workers" filters={{}} />
      </div>
      <table className="table-base min-w-[56rem]" data-testid="workers-table">
        <thead>
          <tr>
            <th>Status</th>
            <th>Node id</th>
            <th>Hostname</th>
            <th className="num">Pid</th>
            <th>Queues</th>
            <th className="num">Concurrency</th>
            <th>Running</th>
            <th className="num">{words.seen}</th>
          </tr>
        </thead>
        <tbody>
          {q.data.map((w) => (
            <tr key={w.id} data-testid="worker-row" data-id={w.id}>
              <td>
                <WorkerStatus status={w.status} />
              </td>
              <td className="font-mono text-xs break-all">{visible(w.id)}</td>
              <td className="text-xs break-all">{w.hostname === null ? '—' : visible(w.hostname)}</td>
              <td className="num">{w.pid ?? '—'}</td>
              <td className="text-xs">
                {w.queues.map((name) => (
                  <Link key={name} className="link mr-2" href={workerQueueHref(base, name, states)}>
                    {visible(name)}
                  </Link>
                ))}
              </td>
              <td className="num">
                {w.concurrency ?? '—'}
                {w.threads && w.threads !== '1' ? ` × ${w.threads}` : ''}
              </td>
              <td className="font-mono text-xs">
                {w.running.length === 0 ? <span className="text-zinc-500 dark:text-zinc-400">idle</span> : null}
                {w.running.slice(0, 10).map((id) => (
                  <Link key={id} className="link block" href={`${base}/jobs/${encodeURIComponent(id)}`} title={visible(id)}>
                    {truncate(id, 36)}
                  </Link>
                ))}
                {w.running.length > 10 ? <span className="text-zinc-500 dark:text-zinc-400">+{w.running.length - 10} more</span> : null}
              </td>
              <td className="num whitespace-nowrap" data-testid="worker-age">
                {formatAge(w.ageSeconds)} ago
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
