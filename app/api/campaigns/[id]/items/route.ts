import { handle, type Params } from '@/lib/actions/http';
import { campaignItems } from '@/lib/campaigns/service';

export const dynamic = 'force-dynamic';

/** A campaign's tasks with their fates, in replay order; `fate` filters, `cursor` pages. */
export function GET(req: Request, { params }: Params<{ id: string }>) {
  return handle(async () => campaignItems((await params).id, Object.fromEntries(new URL(req.url).searchParams.entries()), req.headers));
}
