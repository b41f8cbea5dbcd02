import { MappingsView } from '@/components/migration/mappings-view';
import { PageTitle } from '@/components/ui/states';
import { requireReader } from '@/lib/auth/current';
import { segment } from '../../../_lib/params';
import { brokerTitle } from '../../../_lib/titles';

export const dynamic = 'force-dynamic';
export const generateMetadata = brokerTitle('Call mappings');

export default async function MappingsPage({ params }: { params: Promise<{ brokerId: string }> }) {
  await requireReader();
  const brokerId = segment((await params).brokerId);
  return (
    <>
      <PageTitle sub="How this broker's tasks become jobs of a broker with another call model when their dead letters move there (docs/migrating-to-queueflow.md).">
        Call mappings
      </PageTitle>
      <MappingsView brokerId={brokerId} />
    </>
  );
}
