import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { EnqueueForm } from '@/components/enqueue/enqueue-form';
import { PageTitle } from '@/components/ui/states';
import { taskNames } from '@/lib/brokers/service';
import { qk } from '@/lib/client/query-keys';
import { segment } from '../../../_lib/params';
import { newServerQueryClient, prefetchOverview } from '../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Enqueue');

export default async function EnqueuePage({ params }: { params: Promise<{ brokerId: string }> }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const qc = newServerQueryClient();
  await Promise.all([
    prefetchOverview(qc, brokerId),
    qc.prefetchQuery({ queryKey: qk.taskNames(brokerId), queryFn: () => taskNames(brokerId) }),
  ]);
  return (
    <>
      <PageTitle sub="Writes one message exactly as potatoq's producers do.">Enqueue a task</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <EnqueueForm brokerId={brokerId} />
      </HydrationBoundary>
    </>
  );
}
