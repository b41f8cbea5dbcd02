import { handle, type Params } from '@/lib/actions/http';
import { getCampaign } from '@/lib/campaigns/service';

export const dynamic = 'force-dynamic';

/** A campaign and its roll-up; a view polls its follow-up once when due (bounded). */
export function GET(req: Request, { params }: Params<{ id: string }>) {
  return handle(async () => getCampaign((await params).id, req.headers));
}
