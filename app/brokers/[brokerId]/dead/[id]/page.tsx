import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { DeadDetailView } from '@/components/jobs/dead-detail';
import { FamilyPanel } from '@/components/family/family-panel';
import { MovedPanel } from '@/components/migration/moved-panel';
import { PageTitle } from '@/components/ui/states';
import { segment } from '../../../../_lib/params';
import { newServerQueryClient, prefetchDeadOne, prefetchOverview } from '../../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { visible } from '@/lib/text/visible';
import { brokerTitle, shortId } from '../../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle((p) => `Dead letter ${shortId(p.id ?? '')}`);

export default async function DeadLetterPage({ params }: { params: Promise<{ brokerId: string; id: string }> }) {
  await requireReader();
  const p = await params;
  const brokerId = segment(p.brokerId);
  const id = segment(p.id);
  const qc = newServerQueryClient();
  await Promise.all([prefetchOverview(qc, brokerId), prefetchDeadOne(qc, brokerId, id)]);
  return (
    <>
      <PageTitle sub={<span className="font-mono text-xs break-all">{visible(id)}</span>}>Dead letter</PageTitle>
      <MovedPanel brokerId={brokerId} id={id} />
      <HydrationBoundary state={dehydrate(qc)}>
        <DeadDetailView brokerId={brokerId} id={id} />
        <FamilyPanel brokerId={brokerId} id={id} />
      </HydrationBoundary>
    </>
  );
}
