import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { BrokerCard } from '@/components/overview/broker-card';
import { PageTitle } from '@/components/ui/states';
import { currentPrincipal, requireReader } from '@/lib/auth/current';
import { overviewFor } from '@/lib/auth/mask';
import { overviewAll } from '@/lib/brokers/service';
import { qk } from '@/lib/client/query-keys';
import { newServerQueryClient } from './_lib/prefetch';

export const dynamic = 'force-dynamic';

export default async function OverviewPage() {
  await requireReader();
  const [all, principal] = await Promise.all([overviewAll(), currentPrincipal()]);
  const qc = newServerQueryClient();
  for (const o of all) if (o.ok) qc.setQueryData(qk.overview(o.overview.id), overviewFor(o.overview, principal));
  return (
    <>
      <PageTitle sub="Every configured broker; counts refresh every 5 seconds.">Overview</PageTitle>
      <HydrationBoundary state={dehydrate(qc)}>
        <div className="grid gap-6">
          {all.map((o) =>
            o.ok ? (
              <BrokerCard key={o.overview.id} brokerId={o.overview.id} name={o.overview.name} kind={o.overview.kind} />
            ) : (
              <BrokerCard key={o.id} brokerId={o.id} name={o.name} kind={o.kind} initialError={o.error} />
            ),
          )}
        </div>
      </HydrationBoundary>
    </>
  );
}
