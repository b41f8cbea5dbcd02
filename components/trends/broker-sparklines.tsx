'use client';
import { taskWords } from '@/components/jobs/task-words';
import { useOverview } from '@/lib/client/hooks';
import Link from 'next/link';
import { describeError } from '@/lib/client/api';
import { formatCount } from '@/lib/text/format';
import { useDeadTrend, useQueueTrend } from '@/lib/client/trends';
import { Sparkline } from './sparkline';

function Item({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div className="flex items-center gap-2" data-testid={testId}>
      <span className="text-xs text-zinc-600 dark:text-zinc-400">{label}</span>
      {children}
    </div>
  );
}

const Why = ({ e }: { e: unknown }) => (
  <span className="text-xs text-zinc-600 dark:text-zinc-400" title={describeError(e).message} data-testid="sparkline-unavailable">
    — ({describeError(e).code})
  </span>
);

/** The overview's last day at a glance: waiting tasks (sampled) and dead letters (died times). */
export function BrokerSparklines({ brokerId }: { brokerId: string }) {
  const depth = useQueueTrend(brokerId, 'day');
  const nouns = taskWords(useOverview(brokerId).data?.model).nouns;
  const dead = useDeadTrend(brokerId, 'day');
  const total = dead.data?.total;
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 pb-3" data-testid="broker-sparklines">
      <Item label="Waiting, last 24 h" testId="sparkline-depth">
        {depth.data ? (
          <>
            <Sparkline
              values={depth.data.depth}
              from={depth.data.from}
              bucketSeconds={depth.data.bucketSeconds}
              label={
                depth.data.depthAtLeast.some(Boolean)
                  ? `Waiting ${nouns}, last 24 hours (some samples are lower bounds: the console stopped counting at the broker's cap)`
                  : `Waiting ${nouns}, last 24 hours`
              }
            />
            {depth.data.depthAtLeast.some(Boolean) ? (
              <span
                className="text-xs text-zinc-600 dark:text-zinc-400"
                title="Some samples are lower bounds: the console stopped counting at the broker's cap (countCap / countScan)"
                data-testid="sparkline-lower-bound"
              >
                (at least)
              </span>
            ) : null}
          </>
        ) : depth.error ? (
          <Why e={depth.error} />
        ) : null}
      </Item>
      <Item label="Dead letters, last 24 h" testId="sparkline-dead">
        {dead.data ? (
          <>
            <Sparkline
              values={dead.data.counts}
              from={dead.data.from}
              bucketSeconds={dead.data.bucketSeconds}
              label="Dead letters per 15 minutes, last 24 hours"
            />
            <span className="text-xs tabular-nums">{formatCount(total ?? null)}</span>
          </>
        ) : dead.error ? (
          <Why e={dead.error} />
        ) : null}
      </Item>
      <Link className="link text-xs" href={`/brokers/${encodeURIComponent(brokerId)}/dead`}>
        charts by queue and error →
      </Link>
    </div>
  );
}
