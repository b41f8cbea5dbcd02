'use client';
import Link from 'next/link';
import { useMemo } from 'react';
import { ConfirmAction } from '@/components/actions/confirm-action';
import { MoveAction, waitingMoveOff } from '@/components/actions/move-action';
import { BulkAllButton } from '@/components/bulk/bulk-all-button';
import { Badge } from '@/components/ui/badge';
import { ListScope } from '@/components/ui/list-scope';
import { LoadMore } from '@/components/ui/load-more';
import { useSelection } from '@/components/ui/selection';
import { useHydrated } from '@/components/ui/use-hydrated';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { Ago } from '@/components/ui/time';
import { timeOf, type StateDecl, type TaskSummary } from '@/lib/brokers/schema';
import { taskWords } from '@/components/jobs/task-words';
import { describeError } from '@/lib/client/api';
import { truncate } from '@/lib/text/format';
import { useOverview, useTasks } from '@/lib/client/hooks';
import { ExportLinks } from '@/components/ui/export-links';
import type { TaskFilters } from '@/lib/client/query-keys';
import { listTotal } from '@/lib/client/list-total';
import { visible } from '@/lib/text/visible';

function WhenCell({ t, field }: { t: TaskSummary; field: string }) {
  return <Ago iso={timeOf(t, field)} />;
}

const WHEN_DEFAULT: StateDecl['time'] = { field: 'createdAt', label: 'Enqueued' };

/** Waiting or running tasks of one queue, keyset-paged, with revoke for waiting ones. */
export function TaskTable({ brokerId, filters }: { brokerId: string; filters: TaskFilters }) {
  const q = useTasks(brokerId, filters);
  const o = useOverview(brokerId);
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  const ids = useMemo(() => items.map((t) => t.id), [items]);
  const sel = useSelection(ids);
  // A box ticked before hydration would look checked but select nothing.
  const hydrated = useHydrated();
  // What the list shows follows the state as the adapter declares it.
  const decl = o.data?.model?.states.find((st) => st.key === filters.state);
  const when = decl?.time ?? WHEN_DEFAULT;
  const owned = decl?.owned ?? false;
  const words = taskWords(o.data?.model);
  const canRevoke = !owned;
  const revokeCap = o.data?.capabilities.revoke;
  const moveOff = waitingMoveOff(o.data?.model);
  const base = `/brokers/${encodeURIComponent(brokerId)}`;
  const exportLinks = <ExportLinks brokerId={brokerId} list="tasks" noun={words.nouns} filters={{ ...filters }} />;
  if (q.error && !q.data)
    return (
      <div className="p-4">
        <ErrorBox {...describeError(q.error)} />
      </div>
    );
  if (!q.data) return <Loading />;
  return (
    <div>
      {canRevoke ? (
        <div className="flex items-center gap-3 border-b border-zinc-200 px-4 py-2 text-sm dark:border-zinc-800" data-testid="bulk-bar">
          <span data-testid="selected-count">{sel.selected.length} selected</span>
          <ConfirmAction
            kind="revoke"
            brokerId={brokerId}
            queue={filters.queue}
            ids={sel.selected}
            disabledReason={revokeCap && !revokeCap.on ? (revokeCap.why ?? 'revoke is not available') : undefined}
            onDone={sel.clear}
          />
          {moveOff !== null ? (
            <MoveAction
              from="waiting"
              brokerId={brokerId}
              queue={filters.queue}
              ids={sel.selected}
              disabledReason={moveOff || undefined}
              onDone={sel.clear}
            />
          ) : null}
          <BulkAllButton
            brokerId={brokerId}
            action="revoke"
            filter={filters}
            disabledReason={revokeCap && !revokeCap.on ? (revokeCap.why ?? 'revoke is not available') : undefined}
          />
          {moveOff !== null ? (
            <BulkAllButton brokerId={brokerId} action="move-waiting" filter={filters} disabledReason={moveOff || undefined} />
          ) : null}
          <span className="ml-auto">{exportLinks}</span>
        </div>
      ) : (
        <div className="flex items-center gap-3 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            These {words.nouns} are never changed by the console: their worker owns them until it settles them.
          </p>
          <span className="ml-auto">{exportLinks}</span>
        </div>
      )}
      {q.error ? (
        <div className="px-4 pt-2">
          <ErrorBox {...describeError(q.error)} />
        </div>
      ) : null}
      {decl ? (
        <p className="px-4 pt-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="list-order">
          Listed {decl.order.label}.
        </p>
      ) : null}
      <ListScope pages={q.data?.pages} noun={words.nouns} />
      {items.length === 0 ? (
        <Empty>
          No {filters.state} {words.nouns} match.
        </Empty>
      ) : (
        <div className="overflow-x-auto">
          <table className="table-base min-w-[56rem]" data-testid="task-table">
            <thead>
              <tr>
                {canRevoke ? (
                  <th className="w-8">
                    <input
                      type="checkbox"
                      aria-label="Select all shown"
                      checked={sel.allOn}
                      onChange={sel.toggleAll}
                      data-testid="select-all"
                      disabled={!hydrated}
                    />
                  </th>
                ) : null}
                <th>Id</th>
                <th>{words.name ?? 'Task'}</th>
                <th className="num">Priority</th>
                <th>{when.label}</th>
                {owned ? <th>Worker</th> : null}
                <th className="num" title={words.deliveries.help}>
                  {words.deliveries.label}
                </th>
                <th>{words.payload.shape === 'value' ? words.payload.label : 'Arguments'}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((t) => (
                <tr key={t.id} data-testid="task-row" data-id={t.id}>
                  {canRevoke ? (
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${t.id}`}
                        checked={sel.isOn(t.id)}
                        onChange={() => sel.toggle(t.id)}
                        data-testid="select-row"
                        disabled={!hydrated}
                      />
                    </td>
                  ) : null}
                  <td className="font-mono text-xs">
                    <Link className="link" href={`${base}/jobs/${encodeURIComponent(t.id)}`} title={visible(t.id)}>
                      {truncate(t.id, 40)}
                    </Link>
                  </td>
                  <td className="break-all" title={visible(t.task)}>
                    {truncate(t.task, 60)}
                  </td>
                  <td className="num">{t.priority}</td>
                  <td>
                    <WhenCell t={t} field={when.field} />
                  </td>
                  {owned ? (
                    <td className="font-mono text-xs" title={visible(t.worker ?? '')}>
                      {truncate(t.worker ?? '—', 40)}
                    </td>
                  ) : null}
                  <td className="num">{t.deliveries}</td>
                  <td className="max-w-md font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">
                    {t.preview.kind === 'foreign' ? <Badge tone="red">foreign: {t.preview.foreign}</Badge> : null}{' '}
                    {t.preview.kind === 'large' ? <Badge>large</Badge> : null} {truncate(t.preview.text, 120)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore
        hasMore={!!q.hasNextPage}
        loading={q.isFetchingNextPage}
        onClick={() => void q.fetchNextPage()}
        shown={items.length}
        total={listTotal(o.data, filters.state, filters)}
      />
    </div>
  );
}
