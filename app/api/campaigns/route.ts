import { handle } from '@/lib/actions/http';
import { listCampaigns } from '@/lib/campaigns/service';

export const dynamic = 'force-dynamic';

/** Campaigns newest first; `broker`, `task` (the campaigns that replayed or moved a task id, a moved one by either of its ids), `cursor`. */
export function GET(req: Request) {
  return handle(() => listCampaigns(Object.fromEntries(new URL(req.url).searchParams.entries()), req.headers));
}
