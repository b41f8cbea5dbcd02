import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { TaskDetailView } from '@/components/jobs/task-detail';
import { PageTitle } from '@/components/ui/states';
import { segment } from '../../../../_lib/params';
import { newServerQueryClient, prefetchOverview, prefetchTask } from '../../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { visible } from '@/lib/text/visible';

export const dynamic = 'force-dynamic';

export default async function JobPage({ params }: { params: Promise<{ brokerId: string; jobId: string }> }) {
  await requireReader();
  const p = await params;
  const brokerId = segment(p.brokerId);
  const id = segment(p.jobId);
  const qc = newServerQueryClient();
  await Promise.all([prefetchOverview(qc, brokerId), prefetchTask(qc, brokerId, id)]);
  return (
    <>
      <PageTitle sub={<span className="font-mono text-xs break-all">{visible(id)}</span>}>Task</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <TaskDetailView brokerId={brokerId} id={id} />
      </HydrationBoundary>
    </>
  );
}
