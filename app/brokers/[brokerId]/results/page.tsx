import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { resultsWords } from '@/components/results/filter-hint';
import { ResultRange } from '@/components/results/result-range';
import { ResultsTable } from '@/components/results/results-table';
import { Card } from '@/components/ui/card';
import { FilterBar } from '@/components/ui/filter-bar';
import { PageTitle } from '@/components/ui/states';
import { one, segment, type SearchParams } from '../../../_lib/params';
import { newServerQueryClient, prefetchResults } from '../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { brokerModel } from '@/lib/brokers/service';
import { brokerTitle } from '../../../_lib/titles';
import { describeRange } from '@/lib/brokers/time-range';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Results');

export default async function ResultsPage({ params, searchParams }: { params: Promise<{ brokerId: string }>; searchParams: SearchParams }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const sp = await searchParams;
  const status = one(sp.status)?.toUpperCase();
  // A range as written (a saved "1h" stays relative), by when each task finished.
  const filters = { status, since: one(sp.since), until: one(sp.until) };
  const range = describeRange(filters);
  const qc = newServerQueryClient();
  await prefetchResults(qc, brokerId, filters);
  // What the list is and what an empty status shows are the adapter's to say.
  const words = resultsWords(brokerModel(brokerId)?.results, status);
  return (
    <>
      <PageTitle sub={words.does}>Results</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <Card>
          <div className="p-4">
            <FilterBar
              action={`/brokers/${encodeURIComponent(brokerId)}/results`}
              keep={{ since: filters.since, until: filters.until }}
              fields={[{ name: 'status', label: 'Status', value: status, placeholder: words.placeholder }]}
            />
            <div className="mt-2">
              <ResultRange brokerId={brokerId} since={filters.since} until={filters.until} />
            </div>
            {range ? (
              <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300" data-testid="results-range-words">
                Finished {range}
              </p>
            ) : null}
            {words.note ? (
              <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="results-filter-note">
                {words.note}
              </p>
            ) : null}
          </div>
          <ResultsTable brokerId={brokerId} filters={filters} />
        </Card>
      </HydrationBoundary>
    </>
  );
}
