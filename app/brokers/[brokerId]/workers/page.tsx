import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { Card } from '@/components/ui/card';
import { PageTitle } from '@/components/ui/states';
import { WorkersTable } from '@/components/workers/workers-table';
import { segment } from '../../../_lib/params';
import { newServerQueryClient, prefetchWorkers } from '../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Workers');

export default async function WorkersPage({ params }: { params: Promise<{ brokerId: string }> }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const qc = newServerQueryClient();
  await prefetchWorkers(qc, brokerId);
  return (
    <>
      <PageTitle sub="From the heartbeats workers write every 5 s: stale after 15 s, dead after 60 s.">Workers</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <Card>
          <WorkersTable brokerId={brokerId} />
        </Card>
      </HydrationBoundary>
    </>
  );
}
