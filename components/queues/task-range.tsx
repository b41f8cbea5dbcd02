'use client';
import { DeadRange } from '@/components/dead/dead-range';
import { TimeRangeControl } from '@/components/ui/time-range';
import { useOverview } from '@/lib/client/hooks';

/**
 * A queue tab's range: the tasks' enqueued times (`taskRange`, on every state, the scheduled one
 * too), or the dead letters' died times on a dead tab; the broker's reason where it has none.
 */
export function TaskRange({ brokerId, dead, since, until }: { brokerId: string; dead: boolean; since?: string; until?: string }) {
  const cap = useOverview(brokerId).data?.capabilities?.taskRange;
  if (dead) return <DeadRange brokerId={brokerId} since={since} until={until} />;
  return <TimeRangeControl label="Enqueued" since={since} until={until} cap={cap} />;
}
