import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { resultsWords } from '@/components/results/filter-hint';
import { ResultsTable } from '@/components/results/results-table';
import { Card } from '@/components/ui/card';
import { FilterBar } from '@/components/ui/filter-bar';
import { PageTitle } from '@/components/ui/states';
import { one, segment, type SearchParams } from '../../../_lib/params';
import { newServerQueryClient, prefetchResults } from '../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { brokerModel } from '@/lib/brokers/service';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Results');

export default async function ResultsPage({ params, searchParams }: { params: Promise<{ brokerId: string }>; searchParams: SearchParams }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const status = one((await searchParams).status)?.toUpperCase();
  const qc = newServerQueryClient();
  await prefetchResults(qc, brokerId, status);
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
              fields={[{ name: 'status', label: 'Status', value: status, placeholder: words.placeholder }]}
            />
            {words.note ? (
              <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="results-filter-note">
                {words.note}
              </p>
            ) : null}
          </div>
          <ResultsTable brokerId={brokerId} status={status} />
        </Card>
      </HydrationBoundary>
    </>
  );
}
