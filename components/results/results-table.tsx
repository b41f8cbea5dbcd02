'use client';
import { useMemo } from 'react';
import { Badge, type Tone } from '@/components/ui/badge';
import { ExportLinks } from '@/components/ui/export-links';
import { LoadMore } from '@/components/ui/load-more';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { Ago } from '@/components/ui/time';
import { describeError } from '@/lib/client/api';
import { truncate } from '@/lib/text/format';
import { useOverview, useResults } from '@/lib/client/hooks';
import type { ResultFilters } from '@/lib/client/query-keys';
import { taskWords } from '@/components/jobs/task-words';
import { visible } from '@/lib/text/visible';

const TONE: Record<string, Tone> = {
  SUCCESS: 'green',
  COMPLETED: 'green',
  FAILURE: 'red',
  FAILED: 'red',
  RETRY: 'yellow',
  REVOKED: 'neutral',
  CANCELLED: 'neutral',
};

/** Stored results, without potatoq's internal records (registered names, groups). */
export function ResultsTable({ brokerId, filters }: { brokerId: string; filters: ResultFilters }) {
  const q = useResults(brokerId, filters);
  const words = taskWords(useOverview(brokerId).data?.model);
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  if (q.error && !q.data)
    return (
      <div className="p-4">
        <ErrorBox {...describeError(q.error)} />
      </div>
    );
  if (!q.data) return <Loading />;
  return (
    <div>
      <div className="flex justify-end border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        <ExportLinks brokerId={brokerId} list="results" noun="results" filters={{ ...filters }} />
      </div>
      {items.length === 0 ? (
        <Empty>No stored results{status ? ` with status ${status}` : ''}.</Empty>
      ) : (
        <div className="overflow-x-auto">
          <table className="table-base min-w-[40rem]" data-testid="results-table">
            <thead>
              <tr>
                <th>Id</th>
                <th>Status</th>
                <th>{words.name ?? 'Task'}</th>
                <th>Done</th>
                <th>Expires</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id} data-testid="result-row" data-id={r.id}>
                  <td className="font-mono text-xs" title={visible(r.id)}>
                    {truncate(r.id, 40)}
                  </td>
                  <td>
                    <Badge tone={TONE[r.status] ?? 'blue'}>{r.status}</Badge>
                  </td>
                  <td className="break-all">{truncate(r.name ?? '—', 60)}</td>
                  <td>
                    <Ago iso={r.dateDone} />
                  </td>
                  <td>
                    <Ago iso={r.expiresAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore hasMore={!!q.hasNextPage} loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()} shown={items.length} />
    </div>
  );
}
