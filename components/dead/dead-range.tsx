'use client';
import { TimeRangeControl } from '@/components/ui/time-range';
import { useOverview } from '@/lib/client/hooks';

/** The dead-letter list's range of died times, or the broker's reason it has none (`deadRange`). */
export function DeadRange({ brokerId, since, until }: { brokerId: string; since?: string; until?: string }) {
  const caps = useOverview(brokerId).data?.capabilities;
  return <TimeRangeControl label="Died" since={since} until={until} cap={caps?.deadRange} />;
}

/** "died in the last 1h": the range a card's letters are narrowed to, in words. */
export function RangeWords({ range, testId }: { range: string; testId: string }) {
  return (
    <span className="text-sm text-zinc-600 dark:text-zinc-300" data-testid={testId}>
      died {range}
    </span>
  );
}
