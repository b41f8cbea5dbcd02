import { Card } from '@/components/ui/card';
import { PageTitle } from '@/components/ui/states';
import { WorkflowList } from '@/components/workflows/workflow-list';
import { requireReader } from '@/lib/auth/current';
import { brokerModel, overview } from '@/lib/brokers/service';
import { segment } from '../../../_lib/params';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Workflows');

/** Workflow runs by status, where the broker's adapter declares workflows; else its reason. */
export default async function WorkflowsPage({
  params,
  searchParams,
}: {
  params: Promise<{ brokerId: string }>;
  searchParams: Promise<{ status?: string }>;
}) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  const status = (await searchParams).status ?? '';
  const decl = brokerModel(brokerId)?.workflows;
  const cap = decl
    ? null
    : await overview(brokerId).then(
        (o) => o.capabilities.workflows,
        () => null,
      );
  return (
    <>
      <PageTitle sub="Runs of a DAG of steps, newest first; open one to see its graph.">Workflows</PageTitle>
      {decl ? (
        <WorkflowList brokerId={brokerId} decl={decl} status={typeof status === 'string' ? status : ''} />
      ) : (
        <Card testId="workflows-off">
          <p className="p-4 text-sm">{cap?.why ?? 'This broker shows no workflow runs.'}</p>
        </Card>
      )}
    </>
  );
}
