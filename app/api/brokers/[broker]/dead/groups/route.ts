import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZDeadGroupsQuery } from '@/lib/brokers/schema';
import { deadGroups } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => deadGroups((await params).broker, parseQuery(ZDeadGroupsQuery, req)));
}
