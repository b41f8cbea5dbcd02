import { Suspense } from 'react';
import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { BrokerCard, PendingBrokerCard } from '@/components/overview/broker-card';
import { OverviewBoard, RankedSlot } from '@/components/overview/overview-board';
import { PageTitle } from '@/components/ui/states';
import { currentPrincipal, requireReader } from '@/lib/auth/current';
import { overviewFor } from '@/lib/auth/mask';
import { brokerBadge, type BrokerEntry } from '@/lib/brokers/naming';
import { brokerList, overviewOutcome } from '@/lib/brokers/service';
import { qk } from '@/lib/client/query-keys';
import { newServerQueryClient } from './_lib/prefetch';

export const dynamic = 'force-dynamic';
// The layout's title template applies to child segments only, not to this page beside it.
export const metadata = { title: { absolute: 'Overview · potatoq console' } };

/** One broker's card, streamed on its own: a broker that never answers holds back only its
 *  card (until the service's read timeout turns it into an error card), never the others. */
async function StreamedBrokerCard({ broker }: { broker: BrokerEntry }) {
  const [o, principal] = await Promise.all([overviewOutcome(broker.id), currentPrincipal()]);
  if (!o.ok) return <BrokerCard brokerId={o.id} name={o.name} badge={brokerBadge(o)} initialError={o.error} />;
  const qc = newServerQueryClient();
  qc.setQueryData(qk.overview(o.overview.id), overviewFor(o.overview, principal));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <BrokerCard brokerId={o.overview.id} name={o.overview.name} badge={brokerBadge(broker)} />
    </HydrationBoundary>
  );
}

export default async function OverviewPage() {
  await requireReader();
  const brokers = brokerList();
  return (
    <>
      <PageTitle sub="Every configured broker, troubled ones first; counts refresh every 5 seconds.">Overview</PageTitle>
      <OverviewBoard brokers={brokers.map((b) => b.id)}>
        {brokers.map((b) => (
          <RankedSlot key={b.id} brokerId={b.id}>
            <Suspense fallback={<PendingBrokerCard brokerId={b.id} name={b.name} badge={brokerBadge(b)} />}>
              <StreamedBrokerCard broker={b} />
            </Suspense>
          </RankedSlot>
        ))}
      </OverviewBoard>
    </>
  );
}
