import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CampaignLive } from '@/components/campaigns/campaign-live';
import { ErrorBox, PageTitle } from '@/components/ui/states';
import { requireReader } from '@/lib/auth/current';
import { getCampaignStore } from '@/lib/campaigns/open';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Campaign' };

/** One campaign: its roll-up (live while followed), each task's fate, and replaying the dead again. */
export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  await requireReader();
  const { id } = await params;
  if (!/^cmp-[0-9a-f-]{36}$/.test(id)) notFound();
  let c;
  try {
    c = await (await getCampaignStore()).get(id);
  } catch (e) {
    return <ErrorBox code="Internal" message={`the campaign cannot be read: ${(e as Error).message}`} />;
  }
  if (!c) notFound();
  return (
    <>
      <PageTitle sub={<span className="font-mono text-xs">{c.id}</span>}>Campaign</PageTitle>
      <p className="mb-3 text-sm">
        <Link className="link" href="/campaigns">
          All campaigns
        </Link>
      </p>
      <CampaignLive initial={{ ...c, lastPoll: null }} />
    </>
  );
}
