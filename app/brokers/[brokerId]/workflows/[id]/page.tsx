import { PageTitle } from '@/components/ui/states';
import { WorkflowDetailView } from '@/components/workflows/workflow-detail';
import { requireReader } from '@/lib/auth/current';
import { segment } from '../../../../_lib/params';
import { brokerTitle } from '../../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Workflow');

/** One run's DAG, live while it runs; a malformed or unknown id shows the API's error in place. */
export default async function WorkflowPage({ params }: { params: Promise<{ brokerId: string; id: string }> }) {
  await requireReader();
  const p = await params;
  const brokerId = segment(p.brokerId);
  const id = segment(p.id);
  return (
    <>
      <PageTitle>Workflow run</PageTitle>
      <WorkflowDetailView brokerId={brokerId} id={id} />
    </>
  );
}
