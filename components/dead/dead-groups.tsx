'use client';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ExportLinks } from '@/components/ui/export-links';
import { ScopeNote } from '@/components/ui/list-scope';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { Ago } from '@/components/ui/time';
import type { DeadGroup } from '@/lib/brokers/schema';
import { describeError } from '@/lib/client/api';
import { truncate } from '@/lib/text/format';
import { useDeadGroups, type TimeRangeText } from '@/lib/client/hooks';
import { visible } from '@/lib/text/visible';

/** Groups shown at first; "Show more groups" adds as many again. */
export const GROUPS_PAGE = 20;

/** Dead letters grouped by error fingerprint: type, normalised message, innermost own frame. */
export function DeadGroups(props: { brokerId: string; queue?: string; range?: TimeRangeText; active?: string }) {
  const { brokerId, queue, active } = props;
  // Only the range's text goes on: links, exports and the read carry it as written ("1h").
  const range = { since: props.range?.since, until: props.range?.until };
  const q = useDeadGroups(brokerId, queue, range);
  const [shown, setShown] = useState(GROUPS_PAGE);
  if (q.error && !q.data)
    return (
      <div className="p-4">
        <ErrorBox {...describeError(q.error)} />
      </div>
    );
  if (!q.data) return <Loading />;
  const { groups, scope } = q.data;
  // No groups of a bounded read is not "no dead letters": the note says what was left out.
  if (groups.length === 0 && scope.complete)
    return <Empty>{range.since || range.until ? 'No dead letters died in this range.' : 'No dead letters. 🎉'}</Empty>;
  const base = `/brokers/${encodeURIComponent(brokerId)}/dead`;
  const href = (group: string) => {
    const qs = new URLSearchParams();
    if (queue) qs.set('queue', queue);
    qs.set('group', group);
    if (range.since) qs.set('since', range.since);
    if (range.until) qs.set('until', range.until);
    return `${base}?${qs.toString()}`;
  };
  // The active group stays visible even when it is beyond the groups shown.
  const page = groups.filter((g, i) => i < shown || g.fingerprint === active);
  // Fixed columns that fit an 800 px window: the error wraps anywhere, tasks and queues are cut
  // to one line (the whole list in their title), first seen joins last seen below `lg`. The
  // container still scrolls sideways rather than widening the page, should anything not fit.
  return (
    <div className="min-w-0 overflow-x-auto" data-testid="dead-groups-scroll">
      <ScopeNote notes={[scope.complete ? null : scope.note]} testId="dead-groups-scope" />
      <div className="flex flex-wrap items-start justify-between gap-2 px-4 pt-3">
        <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="dead-groups-total">
          {scope.grouped.toLocaleString('en-US')} letter{scope.grouped === 1 ? '' : 's'} in {groups.length.toLocaleString('en-US')} group
          {groups.length === 1 ? '' : 's'}: same exception type, same message once ids, numbers, quoted values and paths are set aside,
          raised from the same place in your code.
        </p>
        <ExportLinks brokerId={brokerId} list="dead/groups" noun="groups" filters={{ queue, ...range }} />
      </div>
      <table className="table-base table-fixed" data-testid="dead-groups">
        <thead>
          <tr>
            <th>Error</th>
            <th className="num w-20">Count</th>
            <th className="w-36">Tasks</th>
            <th className="w-28">Queues</th>
            <th className="hidden w-28 lg:table-cell">First seen</th>
            <th className="w-28">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {page.map((g) => (
            <GroupRow
              key={g.fingerprint}
              g={g}
              href={href(g.fingerprint)}
              exportLinks={
                <ExportLinks
                  brokerId={brokerId}
                  list="dead"
                  noun="letters of this group"
                  filters={{ queue, group: g.fingerprint, ...range }}
                  label="Export its letters"
                />
              }
              exampleHref={`${base}/${encodeURIComponent(g.example.id)}`}
              active={g.fingerprint === active}
            />
          ))}
        </tbody>
      </table>
      {groups.length > page.length ? (
        <div className="flex items-center gap-3 px-4 py-2 text-xs text-zinc-500 dark:text-zinc-400">
          <span data-testid="dead-groups-shown">
            {page.length} of {groups.length} groups shown
          </span>
          <Button size="sm" variant="ghost" onClick={() => setShown((n) => n + GROUPS_PAGE)} data-testid="dead-groups-more">
            Show more groups
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function GroupRow(props: { g: DeadGroup; href: string; exampleHref: string; active: boolean; exportLinks: ReactNode }) {
  const { g, href, exampleHref, active, exportLinks } = props;
  return (
    <tr
      data-testid="dead-group"
      data-fingerprint={g.fingerprint}
      aria-current={active ? 'true' : undefined}
      className={active ? 'bg-sky-50 dark:bg-sky-950/40' : ''}
    >
      <td className="text-xs wrap-anywhere">
        <Link className="link font-mono" href={href} title={visible(g.pattern)} data-testid="dead-group-link">
          {truncate(g.pattern || '(empty reason)', 200)}
        </Link>
        {g.frame ? (
          <p className="mt-0.5 text-zinc-500 dark:text-zinc-400" data-testid="dead-group-frame">
            raised at {visible(g.frame)}
          </p>
        ) : null}
        <p className="mt-0.5 text-zinc-500 dark:text-zinc-400" data-testid="dead-group-example">
          e.g.{' '}
          <Link className="link" href={exampleHref} title={visible(g.example.summary)}>
            {truncate(g.example.summary, 120)}
          </Link>
        </p>
        <div className="mt-0.5">{exportLinks}</div>
      </td>
      <td className="num font-semibold" data-testid="dead-group-count">
        {g.count.toLocaleString('en-US')}
      </td>
      <td className="truncate text-xs" title={truncate(g.tasks.join(', '), 2000)}>
        {truncate(g.tasks.join(', '), 100)}
      </td>
      <td className="truncate text-xs" title={truncate(g.queues.join(', '), 2000)}>
        {truncate(g.queues.join(', '), 60)}
      </td>
      <td className="hidden lg:table-cell">
        <Ago iso={g.oldestAt} />
      </td>
      <td>
        <Ago iso={g.newestAt} />
        <span className="block text-xs text-zinc-500 lg:hidden dark:text-zinc-400">
          first <Ago iso={g.oldestAt} />
        </span>
      </td>
    </tr>
  );
}
