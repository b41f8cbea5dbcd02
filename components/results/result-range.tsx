'use client';
import { TimeRangeControl } from '@/components/ui/time-range';
import { useOverview } from '@/lib/client/hooks';

/** The results list's range of finish times, or the broker's reason it has none (`resultRange`). */
export function ResultRange({ brokerId, since, until }: { brokerId: string; since?: string; until?: string }) {
  const caps = useOverview(brokerId).data?.capabilities;
  return <TimeRangeControl label="Finished" since={since} until={until} cap={caps?.resultRange} />;
}
