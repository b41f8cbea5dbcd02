'use client';
import Link from 'next/link';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { Ago } from '@/components/ui/time';
import { describeError } from '@/lib/client/api';
import { truncate } from '@/lib/client/format';
import { useDeadGroups } from '@/lib/client/hooks';

/** Dead letters grouped by the last line of their reason (what `potatoq dead list` shows). */
export function DeadGroups({ brokerId, queue, active }: { brokerId: string; queue?: string; active?: string }) {
  const q = useDeadGroups(brokerId, queue);
  if (q.error && !q.data) return <div className="p-4"><ErrorBox {...describeError(q.error)} /></div>;
  if (!q.data) return <Loading />;
  if (q.data.length === 0) return <Empty>No dead letters. 🎉</Empty>;
  const href = (group: string) => {
    const qs = new URLSearchParams();
    if (queue) qs.set('queue', queue);
    qs.set('group', group);
    return `/brokers/${encodeURIComponent(brokerId)}/dead?${qs.toString()}`;
  };
  return (
    <div className="overflow-x-auto">
      <table className="table-base min-w-[48rem]" data-testid="dead-groups">
        <thead>
          <tr>
            <th>Reason</th>
            <th className="num">Count</th>
            <th>Tasks</th>
            <th>Queues</th>
            <th>Newest</th>
          </tr>
        </thead>
        <tbody>
          {q.data.map((g) => (
            <tr key={g.summary} data-testid="dead-group" aria-current={g.summary === active ? 'true' : undefined} className={g.summary === active ? 'bg-sky-50 dark:bg-sky-950/40' : ''}>
              <td className="max-w-xl text-xs break-words">
                <Link className="link" href={href(g.summary)} title={g.summary} data-testid="dead-group-link">
                  {truncate(g.summary || '(empty reason)', 160)}
                </Link>
              </td>
              <td className="num font-semibold" data-testid="dead-group-count">{g.count.toLocaleString('en-US')}</td>
              <td className="text-xs break-all">{truncate(g.tasks.join(', '), 100)}</td>
              <td className="text-xs">{truncate(g.queues.join(', '), 60)}</td>
              <td><Ago iso={g.newestAt} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
