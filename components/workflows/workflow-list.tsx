'use client';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { ExportLinks } from '@/components/ui/export-links';
import { LoadMore } from '@/components/ui/load-more';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { Ago } from '@/components/ui/time';
import type { WorkflowsDecl } from '@/lib/brokers/workflow-schema';
import { describeError } from '@/lib/client/api';
import { visible } from '@/lib/text/visible';
import { TONE } from './tones';
import { roleOf, useWorkflowRuns } from './use-workflows';

/** Runs of one status (tabs from the adapter's declared statuses; "All" first), newest first. */
export function WorkflowList({ brokerId, decl, status }: { brokerId: string; decl: WorkflowsDecl; status: string }) {
  const q = useWorkflowRuns(brokerId, status);
  const base = `/brokers/${encodeURIComponent(brokerId)}/workflows`;
  const runs = q.data?.pages.flatMap((p) => p.items) ?? [];
  const total = q.data?.pages[0]?.total;
  const tabs = [{ key: '', label: 'All', means: 'Every run, newest first.' }, ...decl.runStatuses];
  return (
    <Card testId="workflow-list">
      <nav className="flex flex-wrap gap-1 border-b border-zinc-200 p-2 dark:border-zinc-800" aria-label="Workflow status">
        {tabs.map((t) => (
          <Link
            key={t.key || 'all'}
            href={t.key ? `${base}?status=${encodeURIComponent(t.key)}` : base}
            title={t.means}
            data-testid={`wf-tab-${t.key || 'all'}`}
            className={`rounded px-2 py-1 text-sm ${t.key === status ? 'bg-zinc-200 font-semibold dark:bg-zinc-800' : ''}`}
          >
            {t.label}
          </Link>
        ))}
        <span className="ml-auto self-center">
          <ExportLinks brokerId={brokerId} list="workflows" noun="runs" filters={{ status: status || undefined }} />
        </span>
      </nav>
      {q.error && !q.data ? <ErrorBox {...describeError(q.error)} /> : null}
      {!q.data && !q.error ? <Loading /> : null}
      {q.data && runs.length === 0 ? <Empty>No workflow runs{status ? ` with status ${status}` : ''}.</Empty> : null}
      <table className="w-full text-sm">
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {runs.map((r) => (
            <tr key={r.id} data-testid="workflow-row" data-id={r.id}>
              <td className="px-4 py-2">
                <Link className="link break-all" href={`${base}/${encodeURIComponent(r.id)}`}>
                  {visible(r.name)}
                </Link>
                <div className="font-mono text-xs text-zinc-500">{r.id}</div>
              </td>
              <td className="px-2">
                <Badge tone={TONE[roleOf(decl.runStatuses, r.status)]}>{r.status}</Badge>
              </td>
              <td className="px-2 whitespace-nowrap">{r.stepCount} steps</td>
              <td className="px-2 whitespace-nowrap">
                <Ago iso={r.createdAt} />
              </td>
              <td className="max-w-md truncate px-2 text-red-700 dark:text-red-400" title={r.error ?? undefined}>
                {r.error ? visible(r.error) : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <LoadMore
        hasMore={!!q.hasNextPage}
        loading={q.isFetchingNextPage}
        onClick={() => void q.fetchNextPage()}
        shown={runs.length}
        total={typeof total === 'number' ? total.toLocaleString('en-US') : null}
      />
    </Card>
  );
}
