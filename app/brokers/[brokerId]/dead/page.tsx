import { brokerModel } from '@/lib/brokers/service';
import { listWords } from '@/components/jobs/task-words';
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import Link from 'next/link';
import { ActiveGroup } from '@/components/dead/active-group';
import { DeadGroups } from '@/components/dead/dead-groups';
import { DeadRange, RangeWords } from '@/components/dead/dead-range';
import { DeadTable } from '@/components/dead/dead-table';
import { DeadTrends } from '@/components/trends/panels';
import { Card, CardHeader } from '@/components/ui/card';
import { FilterBar } from '@/components/ui/filter-bar';
import { PageTitle } from '@/components/ui/states';
import { getAuthConfig } from '@/lib/auth/config';
import { one, segment, type SearchParams } from '../../../_lib/params';
import { newServerQueryClient, prefetchDead, prefetchDeadGroups, prefetchOverview } from '../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { brokerTitle } from '../../../_lib/titles';
import { visible } from '@/lib/text/visible';
import { describeRange } from '@/lib/brokers/time-range';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Dead letters');

export default async function DeadPage({ params, searchParams }: { params: Promise<{ brokerId: string }>; searchParams: SearchParams }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const sp = await searchParams;
  const sg = Array.isArray(sp.group) ? sp.group[0] : sp.group;
  const words = listWords(brokerModel(brokerId));
  const filters = {
    queue: one(sp.queue),
    task: one(sp.task),
    id: one(sp.id),
    q: one(sp.q),
    group: sg || undefined,
    since: one(sp.since),
    until: one(sp.until),
  };
  // The range as written (a saved "1h" stays relative); the list's words say it.
  const range = describeRange(filters);
  const qc = newServerQueryClient();
  await Promise.all([prefetchOverview(qc, brokerId), prefetchDeadGroups(qc, brokerId, filters), prefetchDead(qc, brokerId, filters)]);
  const base = `/brokers/${encodeURIComponent(brokerId)}/dead`;
  const allHref = filters.queue ? `${base}?queue=${encodeURIComponent(filters.queue)}` : base;
  return (
    <>
      <PageTitle
        sub={
          filters.queue ? (
            <>
              Queue <span className="font-mono">{visible(filters.queue)}</span>
            </>
          ) : (
            'All queues'
          )
        }
      >
        Dead letters
      </PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        {/* One column no wider than the page: a wide table scrolls inside its card, never the page. */}
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
          <Card testId="dead-groups-card">
            <CardHeader title="By error">{range ? <RangeWords testId="dead-groups-range" range={range} /> : null}</CardHeader>
            <DeadGroups brokerId={brokerId} queue={filters.queue} range={filters} active={filters.group} />
          </Card>
          <Card testId="dead-trends-card">
            <CardHeader title={filters.group !== undefined ? 'This group over time' : 'Over time'} />
            <DeadTrends brokerId={brokerId} queue={filters.queue} group={filters.group} span={filters} />
          </Card>
          <Card testId="dead-list-card">
            <CardHeader
              title={
                filters.group !== undefined ? (
                  <span className="flex flex-wrap items-center gap-2">
                    Letters of group <ActiveGroup brokerId={brokerId} queue={filters.queue} range={filters} fingerprint={filters.group} />
                    <Link href={allHref} className="link text-sm font-normal" data-testid="clear-group">
                      (all groups)
                    </Link>
                  </span>
                ) : (
                  'All letters'
                )
              }
            >
              {range ? <RangeWords testId="dead-range-words" range={range} /> : null}
            </CardHeader>
            <div className="p-4">
              <FilterBar
                action={base}
                keep={{ group: filters.group, since: filters.since, until: filters.until }}
                fields={[
                  { name: 'queue', label: 'Queue', value: filters.queue },
                  { name: 'task', label: words.name, value: filters.task },
                  { name: 'id', label: 'Id', value: filters.id },
                  // With arguments hidden the search looks at reasons only (lib/auth/redact.ts).
                  {
                    name: 'q',
                    label: getAuthConfig().redactArgs ? 'Text in reason' : `Text in reason or ${words.args}`,
                    value: filters.q,
                    placeholder: 'search…',
                  },
                ]}
              />
              <div className="mt-2">
                <DeadRange brokerId={brokerId} since={filters.since} until={filters.until} />
              </div>
            </div>
            <DeadTable brokerId={brokerId} filters={filters} />
          </Card>
        </div>
      </HydrationBoundary>
    </>
  );
}
