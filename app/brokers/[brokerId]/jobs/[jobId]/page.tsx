import { brokerModel } from '@/lib/brokers/service';
import { listWords } from '@/components/jobs/task-words';
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { TaskDetailView, type AfterWaiting } from '@/components/jobs/task-detail';
import { FamilyPanel } from '@/components/family/family-panel';
import { MovedPanel } from '@/components/migration/moved-panel';
import { PageTitle } from '@/components/ui/states';
import { segment } from '../../../../_lib/params';
import { newServerQueryClient, prefetchOverview, prefetchTask } from '../../../../_lib/prefetch';
import { requireReader } from '@/lib/auth/current';
import { readResult } from '@/lib/auth/redact';
import { isConsoleError } from '@/lib/brokers/errors';
import { getDead } from '@/lib/brokers/service';
import { qk } from '@/lib/client/query-keys';
import { visible } from '@/lib/text/visible';
import { brokerTitle, shortId } from '../../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle((p) => `Task ${shortId(p.jobId ?? '')}`);

/** A task that is no longer waiting or running: its stored result, or its dead letter. */
async function afterWaiting(brokerId: string, id: string): Promise<AfterWaiting> {
  const [result, dead] = await Promise.all([
    readResult(brokerId, id).catch(() => null),
    getDead(brokerId, id).then(
      () => true,
      () => false,
    ),
  ]);
  return { result, dead };
}

export default async function JobPage({ params }: { params: Promise<{ brokerId: string; jobId: string }> }) {
  await requireReader();
  const p = await params;
  const brokerId = segment(p.brokerId);
  const id = segment(p.jobId);
  const qc = newServerQueryClient();
  await Promise.all([prefetchOverview(qc, brokerId), prefetchTask(qc, brokerId, id)]);
  const err = qc.getQueryState(qk.task(brokerId, id))?.error;
  const after = isConsoleError(err) && err.code === 'NotFound' ? await afterWaiting(brokerId, id) : null;
  return (
    <>
      <PageTitle sub={<span className="font-mono text-xs break-all">{visible(id)}</span>}>
        {listWords(brokerModel(brokerId)).title}
      </PageTitle>
      <MovedPanel brokerId={brokerId} id={id} />
      <HydrationBoundary state={dehydrate(qc)}>
        <TaskDetailView brokerId={brokerId} id={id} after={after} />
        <FamilyPanel brokerId={brokerId} id={id} />
      </HydrationBoundary>
    </>
  );
}
