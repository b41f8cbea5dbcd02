import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { BrokerHome } from '@/components/broker/broker-home';
import { PageTitle } from '@/components/ui/states';
import { brokerBadge } from '@/lib/brokers/naming';
import { brokerList } from '@/lib/brokers/service';
import { newServerQueryClient, prefetchOverview, prefetchWorkers } from '../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { brokerTitle } from '../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Queues');

export default async function BrokerPage({ params }: { params: Promise<{ brokerId: string }> }) {
  await requireReader();
  const brokerId = decodeURIComponent((await params).brokerId);
  const broker = brokerList().find((b) => b.id === brokerId);
  const qc = newServerQueryClient();
  await Promise.all([prefetchOverview(qc, brokerId), prefetchWorkers(qc, brokerId)]);
  return (
    <>
      <PageTitle sub={`${broker ? `${brokerBadge(broker)} broker` : 'broker'} · id ${brokerId}`}>{broker?.name ?? brokerId}</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <BrokerHome brokerId={brokerId} />
      </HydrationBoundary>
    </>
  );
}
