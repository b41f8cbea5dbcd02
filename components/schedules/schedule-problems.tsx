'use client';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorBox } from '@/components/ui/states';
import { describeError } from '@/lib/client/api';
import { visible } from '@/lib/text/visible';
import { useSchedules } from './use-schedules';

/** On the broker's overview: every schedule that missed a firing or is failing, with its cause. */
export function ScheduleProblems({ brokerId }: { brokerId: string }) {
  const q = useSchedules(brokerId);
  const bad = (q.data?.schedules ?? []).filter((s) => s.problems.length);
  if (!q.error && !bad.length) return null;
  return (
    <Card testId="broker-schedule-problems">
      <CardHeader title="Schedules">
        <Link className="link text-sm" href={`/brokers/${encodeURIComponent(brokerId)}/schedules`}>
          All schedules
        </Link>
      </CardHeader>
      {q.error ? (
        <div className="p-4">
          <ErrorBox {...describeError(q.error)} />
        </div>
      ) : null}
      <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {bad.map((s) =>
          s.problems.map((p, i) => (
            <li
              key={`${s.id}-${i}`}
              className="flex flex-wrap items-baseline gap-2 px-4 py-2 text-sm"
              data-testid="broker-schedule-problem"
            >
              <Badge tone="red">{p.kind === 'missed' ? 'missed firing' : 'failing'}</Badge>
              <span className="font-medium">{visible(s.name)}</span>
              <span className="text-zinc-600 dark:text-zinc-400">{visible(p.cause)}</span>
            </li>
          )),
        )}
      </ul>
    </Card>
  );
}
