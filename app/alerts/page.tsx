import type { Metadata } from 'next';
import { AlertsView } from '@/components/alerts/alerts-view';
import { PageTitle } from '@/components/ui/states';
import { requireReader } from '@/lib/auth/current';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts' };

/** Queue-health targets and the webhook: everyone signed in reads, operators change (audited). */
export default async function AlertsPage() {
  await requireReader();
  return (
    <>
      <PageTitle sub="What healthy means per queue; exported to /metrics and /api/alerts/rules, and sent to the webhook">Alerts</PageTitle>
      <AlertsView />
    </>
  );
}
