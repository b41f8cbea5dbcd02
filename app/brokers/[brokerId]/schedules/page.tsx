import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { Card } from '@/components/ui/card';
import { PageTitle } from '@/components/ui/states';
import { SchedulesView } from '@/components/schedules/schedules-view';
import { schedulesKey } from '@/components/schedules/keys';
import { segment } from '../../../_lib/params';
import { newServerQueryClient, prefetchOverview } from '../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { schedulesRead } from '@/lib/actions/schedules-read';
import { brokerModel } from '@/lib/brokers/service';
import { schedulesDecl } from '@/lib/brokers/schedule-model';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Schedules');

export default async function SchedulesPage({ params }: { params: Promise<{ brokerId: string }> }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const model = brokerModel(brokerId);
  const decl = schedulesDecl(model);
  // What the system keeps and what not is its adapter's to say, here and on the overview.
  if (!decl) {
    const why = model?.schedules && 'off' in model.schedules ? model.schedules.off : "this system's adapter declares no schedules";
    return (
      <>
        <PageTitle>Schedules</PageTitle>
        <Card testId="schedules-off">
          <p className="p-4 text-sm">The console shows no schedules for this broker: {why}.</p>
        </Card>
      </>
    );
  }
  const qc = newServerQueryClient();
  await Promise.all([
    prefetchOverview(qc, brokerId),
    qc.prefetchQuery({ queryKey: schedulesKey(brokerId), queryFn: () => schedulesRead(brokerId) }),
  ]);
  return (
    <>
      <PageTitle sub={decl.source}>Schedules</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <SchedulesView brokerId={brokerId} decl={decl} />
      </HydrationBoundary>
    </>
  );
}
