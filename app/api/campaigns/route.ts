import { handle } from '@/lib/actions/http';
import { listCampaigns } from '@/lib/campaigns/service';

export const dynamic = 'force-dynamic';

/** Campaigns newest first; `broker`, `task` (the campaigns that replayed a task id), `cursor`. */
export function GET(req: Request) {
  return handle(() => listCampaigns(Object.fromEntries(new URL(req.url).searchParams.entries()), req.headers));
}
