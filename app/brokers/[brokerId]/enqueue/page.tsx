import { taskWords } from '@/components/jobs/task-words';
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { EnqueueForm } from '@/components/enqueue/enqueue-form';
import { ErrorBox, PageTitle } from '@/components/ui/states';
import { brokerModel, taskSightings } from '@/lib/brokers/service';
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
    qc.prefetchQuery({ queryKey: qk.taskNames(brokerId), queryFn: () => taskSightings(brokerId) }),
  ]);
  // The form's fields are the adapter's declaration (constant for its life, no broker call).
  const model = brokerModel(brokerId);
  const decl = model?.actions.enqueue ?? null;
  return (
    <>
      <PageTitle sub={decl?.does}>Enqueue a {taskWords(model).noun}</PageTitle>
      {decl ? (
        <HydrationBoundary state={dehydrate(qc)}>
          <EnqueueForm brokerId={brokerId} decl={decl} />
        </HydrationBoundary>
      ) : (
        <ErrorBox code="Unsupported" message="The console cannot enqueue on this broker: its adapter could not be created." />
      )}
    </>
  );
}
