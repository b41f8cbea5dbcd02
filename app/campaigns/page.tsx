import type { Metadata } from 'next';
import Link from 'next/link';
import { CampaignTable } from '@/components/campaigns/campaign-table';
import { ErrorBox, PageTitle } from '@/components/ui/states';
import { requireReader } from '@/lib/auth/current';
import { getCampaignStore } from '@/lib/campaigns/open';
import { ZCampaignListQuery } from '@/lib/campaigns/schema';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Campaigns' };

type SP = Record<string, string | string[] | undefined>;

/** Every replay, edited replay, move and bulk job with what became of its tasks; `?task=` one task's. */
export default async function CampaignsPage({ searchParams }: { searchParams: Promise<SP> }) {
  await requireReader();
  const raw = Object.fromEntries(Object.entries(await searchParams).flatMap(([k, v]) => (typeof v === 'string' && v ? [[k, v]] : [])));
  const q = ZCampaignListQuery.safeParse(raw);
  if (!q.success) return <ErrorBox code="InvalidInput" message={q.error.issues[0]?.message ?? 'bad filter'} />;
  let page;
  try {
    page = await (await getCampaignStore()).list(q.data);
  } catch (e) {
    return <ErrorBox code="Internal" message={`the campaigns cannot be read: ${(e as Error).message}`} />;
  }
  const next = page.nextCursor ? `/campaigns?${new URLSearchParams({ ...raw, cursor: page.nextCursor }).toString()}` : null;
  return (
    <>
      <PageTitle
        sub={
          q.data.task ? (
            <span className="font-mono text-xs break-all">campaigns that replayed or moved {q.data.task}</span>
          ) : (
            'Replays and what became of each task'
          )
        }
      >
        Campaigns
      </PageTitle>
      <CampaignTable campaigns={page.items} />
      {next ? (
        <p className="mt-3 text-sm">
          <Link href={next} className="link" data-testid="campaigns-older">
            Older campaigns
          </Link>
        </p>
      ) : null}
    </>
  );
}
