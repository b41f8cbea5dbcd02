import { listWords } from '@/components/jobs/task-words';
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import Link from 'next/link';
import { PauseButton } from '@/components/actions/pause-button';
import { PurgeButton } from '@/components/actions/purge-button';
import { DeadTable } from '@/components/dead/dead-table';
import { StateTabs } from '@/components/queues/state-tabs';
import { pickTab, queueTabs } from '@/components/queues/tabs';
import { TaskRange } from '@/components/queues/task-range';
import { TaskTable } from '@/components/queues/task-table';
import { QueueTrends } from '@/components/trends/panels';
import { Card, CardHeader } from '@/components/ui/card';
import { FilterBar } from '@/components/ui/filter-bar';
import { PageTitle } from '@/components/ui/states';
import { getAuthConfig } from '@/lib/auth/config';
import { brokerModel } from '@/lib/brokers/service';
import { one, segment, type SearchParams } from '../../../../_lib/params';
import { newServerQueryClient, prefetchDead, prefetchOverview, prefetchTasks } from '../../../../_lib/prefetch';
import { getPurgeBlock } from './purge-block';
import { requireReader } from '@/lib/auth/current';
import { visible } from '@/lib/text/visible';
import { brokerTitle } from '../../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle((p) => `Queue ${p.queue}`);

export default async function QueuePage({
  params,
  searchParams,
}: {
  params: Promise<{ brokerId: string; queue: string }>;
  searchParams: SearchParams;
}) {
  await requireReader();
  const p = await params;
  const brokerId = segment(p.brokerId);
  const queue = segment(p.queue);
  const sp = await searchParams;
  const stateParam = one(sp.state);
  // The tabs follow the states the broker's adapter declares; an unknown one shows the first.
  const model = brokerModel(brokerId);
  const tabs = queueTabs(model?.states ?? []);
  const words = listWords(model);
  const state = pickTab(tabs, stateParam);
  const redacted = getAuthConfig().redactArgs;
  // A search in hidden arguments would tell what they hold: dropped from the URL's filters.
  // A time range (as written: a saved "1h" stays relative) is by enqueued time on a task tab.
  const filters = {
    task: one(sp.task),
    id: one(sp.id),
    q: redacted && state !== 'dead' ? undefined : one(sp.q),
    since: one(sp.since),
    until: one(sp.until),
  };
  const qc = newServerQueryClient();
  await Promise.all([
    prefetchOverview(qc, brokerId),
    state === 'dead' ? prefetchDead(qc, brokerId, { queue, ...filters }) : prefetchTasks(qc, brokerId, { state, queue, ...filters }),
  ]);
  const base = `/brokers/${encodeURIComponent(brokerId)}/queues/${encodeURIComponent(queue)}`;
  const purgeBlock = getPurgeBlock(qc, brokerId);
  return (
    <>
      <PageTitle
        sub={
          <Link className="link" href={`/brokers/${encodeURIComponent(brokerId)}`}>
            ← {brokerId}
          </Link>
        }
      >
        Queue{' '}
        <span className="font-mono" data-testid="queue-name">
          {visible(queue)}
        </span>
      </PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <Card>
          <div className="flex flex-wrap items-end justify-between gap-3 p-4">
            <FilterBar
              action={base}
              keep={{ state, since: filters.since, until: filters.until }}
              fields={[
                { name: 'task', label: words.name, value: filters.task },
                { name: 'id', label: words.id, value: filters.id, placeholder: 'id or prefix' },
                // With arguments hidden, tasks can't be searched by them and letters by their reason only.
                ...(!redacted
                  ? [
                      {
                        name: 'q',
                        label: state === 'dead' ? `Text in reason or ${words.args}` : `Text in ${words.args}`,
                        value: filters.q,
                        placeholder: 'search…',
                      },
                    ]
                  : []),
                ...(redacted && state === 'dead' ? [{ name: 'q', label: 'Text in reason', value: filters.q, placeholder: 'search…' }] : []),
              ]}
            />
            <span className="inline-flex items-center gap-2">
              <PauseButton brokerId={brokerId} queue={queue} />
              <PurgeButton brokerId={brokerId} queue={queue} disabledReason={purgeBlock} />
            </span>
          </div>
          <div className="px-4 pb-2">
            <TaskRange brokerId={brokerId} dead={state === 'dead'} since={filters.since} until={filters.until} />
          </div>
          <StateTabs base={base} brokerId={brokerId} queue={queue} tabs={tabs} active={state} params={filters} />
          {state === 'dead' ? (
            <DeadTable brokerId={brokerId} filters={{ queue, ...filters }} />
          ) : (
            <TaskTable brokerId={brokerId} filters={{ state, queue, ...filters }} />
          )}
        </Card>
        <Card className="mt-6" testId="queue-trends-card">
          <CardHeader title="Over time" />
          <QueueTrends brokerId={brokerId} queue={queue} />
        </Card>
      </HydrationBoundary>
    </>
  );
}
