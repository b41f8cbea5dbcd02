'use client';
import { TimeRangeControl } from '@/components/ui/time-range';
import { useOverview } from '@/lib/client/hooks';

/** The dead-letter list's range of died times, or the broker's reason it has none (`deadRange`). */
export function DeadRange({ brokerId, since, until }: { brokerId: string; since?: string; until?: string }) {
  const caps = useOverview(brokerId).data?.capabilities;
  return <TimeRangeControl label="Died" since={since} until={until} cap={caps?.deadRange} />;
}
