'use client';
import { useDeadGroups, type TimeRangeText } from '@/lib/client/hooks';
import { visible } from '@/lib/text/visible';

/** The chosen group's pattern (its fingerprint until the groups are read, or when it is gone). */
export function ActiveGroup(props: { brokerId: string; queue?: string; range?: TimeRangeText; fingerprint: string }) {
  const { brokerId, queue, range = {}, fingerprint } = props;
  const groups = useDeadGroups(brokerId, queue, range).data?.groups;
  const ranged = !!(range.since || range.until);
  const g = groups?.find((x) => x.fingerprint === fingerprint);
  return (
    <span className="font-mono text-sm break-all" data-testid="active-group" data-fingerprint={fingerprint}>
      {visible(g ? g.pattern : fingerprint)}
      {g?.frame ? (
        <span className="ml-2 font-sans text-xs font-normal text-zinc-500 dark:text-zinc-400">raised at {visible(g.frame)}</span>
      ) : null}
      {!g && groups ? (
        <span className="ml-2 font-sans text-xs font-normal text-zinc-500">
          ({ranged ? 'no letters of this group died in the range' : 'no letters left in this group'})
        </span>
      ) : null}
    </span>
  );
}
