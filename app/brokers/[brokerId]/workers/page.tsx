import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { Card } from '@/components/ui/card';
import { PageTitle } from '@/components/ui/states';
import { WorkersTable } from '@/components/workers/workers-table';
import { workersWords } from '@/components/workers/words';
import { segment } from '../../../_lib/params';
import { newServerQueryClient, prefetchWorkers } from '../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { brokerModel } from '@/lib/brokers/service';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Workers');

export default async function WorkersPage({ params }: { params: Promise<{ brokerId: string }> }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const qc = newServerQueryClient();
  await prefetchWorkers(qc, brokerId);
  // How this system's workers are known and started is its adapter's to say.
  const model = brokerModel(brokerId);
  const words = workersWords(model?.workers);
  return (
    <>
      <PageTitle sub={words.known}>Workers</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <Card>
          <WorkersTable brokerId={brokerId} words={words} states={model?.states ?? []} />
        </Card>
      </HydrationBoundary>
    </>
  );
}
