import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { listDead } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => listDead((await params).broker, parseQuery(ZDeadListQuery, req)));
}
