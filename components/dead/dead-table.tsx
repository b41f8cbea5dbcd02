'use client';
import Link from 'next/link';
import { useMemo } from 'react';
import { ConfirmAction } from '@/components/actions/confirm-action';
import { MoveAction } from '@/components/actions/move-action';
import { deadMoveOff } from '@/components/actions/move-off';
import { BulkAllButton } from '@/components/bulk/bulk-all-button';
import { ExportLinks } from '@/components/ui/export-links';
import { Badge } from '@/components/ui/badge';
import { ListScope } from '@/components/ui/list-scope';
import { LoadMore } from '@/components/ui/load-more';
import { useSelection } from '@/components/ui/selection';
import { useHydrated } from '@/components/ui/use-hydrated';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { Ago } from '@/components/ui/time';
import type { Capabilities } from '@/lib/brokers/schema';
import { describeError } from '@/lib/client/api';
import { truncate } from '@/lib/text/format';
import { useDeadGroups, useDeadList, useOverview } from '@/lib/client/hooks';
import { taskWords } from '@/components/jobs/task-words';
import { listTotal } from '@/lib/client/list-total';
import type { DeadFilters } from '@/lib/client/query-keys';
import { visible } from '@/lib/text/visible';

function offReason(caps: Capabilities | undefined, c: 'replay' | 'discard'): string | undefined {
  const cap = caps?.[c];
  return cap && !cap.on ? (cap.why ?? `${c} is not available`) : undefined;
}

/** Dead letters newest first, with replay/discard of the selection. */
export function DeadTable({ brokerId, filters }: { brokerId: string; filters: DeadFilters }) {
  const q = useDeadList(brokerId, filters);
  const o = useOverview(brokerId);
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  const ids = useMemo(() => items.map((d) => d.id), [items]);
  const sel = useSelection(ids);
  // A box ticked before hydration would look checked but select nothing.
  const hydrated = useHydrated();
  const caps = o.data?.capabilities;
  const calls = o.data?.model?.calls;
  const movable = !!calls && 'does' in calls.export;
  // The dialog names the queues involved even when the list spans several.
  const queuesOf = (chosen: string[]) => {
    const set = new Set(chosen);
    return [...new Set(items.filter((d) => set.has(d.id)).map((d) => d.queue))].join(', ') || filters.queue;
  };
  const base = `/brokers/${encodeURIComponent(brokerId)}`;
  // With a group chosen (and no other filter narrowing it), the bulk buttons name its size.
  const groups = useDeadGroups(brokerId, filters.queue, filters);
  const narrowed = !!(filters.task || filters.id || filters.q || filters.since || filters.until);
  const group = filters.group !== undefined && !narrowed ? groups.data?.groups.find((g) => g.fingerprint === filters.group) : undefined;
  // Groups over part of the letters (groups.data.scope) know a lower bound of the group, not its size.
  const partial = groups.data?.scope.complete === false;
  const groupProps = (verb: string) =>
    group
      ? partial
        ? { label: `${verb} all of this group…`, groupLabel: group.pattern }
        : {
            label: `${verb} all ${group.count.toLocaleString('en-US')} of this group…`,
            expectedCount: group.count,
            groupLabel: group.pattern,
          }
      : {};
  if (q.error && !q.data)
    return (
      <div className="p-4">
        <ErrorBox {...describeError(q.error)} />
      </div>
    );
  if (!q.data) return <Loading />;
  return (
    <div>
      <div
        className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b border-zinc-200 px-4 py-2 text-sm dark:border-zinc-800"
        data-testid="bulk-bar"
      >
        <span className="flex items-center gap-2">
          <span data-testid="selected-count">{sel.selected.length} selected</span>
          <ConfirmAction
            kind="replay"
            brokerId={brokerId}
            queue={queuesOf(sel.selected)}
            ids={sel.selected}
            disabledReason={offReason(caps, 'replay')}
            onDone={sel.clear}
          />
          <ConfirmAction
            kind="discard"
            brokerId={brokerId}
            queue={queuesOf(sel.selected)}
            ids={sel.selected}
            disabledReason={offReason(caps, 'discard')}
            onDone={sel.clear}
          />
          {movable ? (
            <MoveAction
              brokerId={brokerId}
              queue={queuesOf(sel.selected)}
              ids={sel.selected}
              disabledReason={deadMoveOff(caps, o.data?.model)}
              onDone={sel.clear}
            />
          ) : null}
        </span>
        {/* One choice for "everything": the whole group (or filter) on every page, counted again before it starts. */}
        <span className="flex items-center gap-2" data-testid="bulk-all">
          {group ? (
            <span className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="group-count">
              This group, every page: {partial ? 'at least ' : ''}
              <strong>{group.count.toLocaleString('en-US')}</strong> letter{group.count === 1 ? '' : 's'}
              {partial ? ' (the groups count only part of the dead letters)' : ''}
            </span>
          ) : null}
          <BulkAllButton
            brokerId={brokerId}
            action="replay"
            filter={filters}
            disabledReason={offReason(caps, 'replay')}
            {...groupProps('Replay')}
          />
          <BulkAllButton
            brokerId={brokerId}
            action="discard"
            filter={filters}
            disabledReason={offReason(caps, 'discard')}
            {...groupProps('Discard')}
          />
          {movable ? (
            <BulkAllButton
              brokerId={brokerId}
              action="move"
              filter={filters}
              disabledReason={deadMoveOff(caps, o.data?.model)}
              {...groupProps('Move')}
            />
          ) : null}
          <ExportLinks brokerId={brokerId} list="dead" noun="letters" filters={{ ...filters }} />
        </span>
      </div>
      <ListScope pages={q.data.pages} noun="letters" />
      {q.error ? (
        <div className="px-4 pt-2">
          <ErrorBox {...describeError(q.error)} />
        </div>
      ) : null}
      {items.length === 0 ? (
        <Empty>No dead letters match.</Empty>
      ) : (
        <div className="overflow-x-auto">
          <table className="table-base min-w-[52rem]" data-testid="dead-table">
            <thead>
              <tr>
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
                <th>Id</th>
                <th>{taskWords(o.data?.model).name ?? 'Task'}</th>
                <th>Queue</th>
                <th>Died</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id} data-testid="dead-row" data-id={d.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${d.id}`}
                      checked={sel.isOn(d.id)}
                      onChange={() => sel.toggle(d.id)}
                      data-testid="select-row"
                      disabled={!hydrated}
                    />
                  </td>
                  <td className="font-mono text-xs">
                    <Link className="link" href={`${base}/dead/${encodeURIComponent(d.id)}`} title={visible(d.id)}>
                      {truncate(d.id, 40)}
                    </Link>
                  </td>
                  <td className="break-all" title={visible(d.task)}>
                    {truncate(d.task, 50)}
                  </td>
                  <td title={visible(d.queue)}>{truncate(d.queue, 30)}</td>
                  <td>
                    <Ago iso={d.diedAt} />
                  </td>
                  <td className="max-w-md text-xs break-words" title={visible(d.summary)}>
                    {d.preview.kind === 'foreign' ? <Badge tone="red">foreign: {d.preview.foreign}</Badge> : null}{' '}
                    {d.preview.kind === 'large' ? <Badge>large</Badge> : null}{' '}
                    {d.cause ? (
                      <Badge tone="neutral" testId="dead-cause">
                        {visible(d.cause)}
                      </Badge>
                    ) : null}{' '}
                    {truncate(d.summary, 140)}
                    {d.replayed ? (
                      <span className="ml-2" data-testid="dead-replayed">
                        <Badge tone="green">replayed</Badge>
                        {d.replayed.taskId ? (
                          <>
                            {' as '}
                            <Link className="link font-mono" href={`${base}/jobs/${encodeURIComponent(d.replayed.taskId)}`}>
                              {truncate(d.replayed.taskId, 40)}
                            </Link>
                          </>
                        ) : null}
                      </span>
                    ) : null}
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
        total={group ? group.count.toLocaleString('en-US') : listTotal(o.data, 'dead', filters)}
      />
    </div>
  );
}
