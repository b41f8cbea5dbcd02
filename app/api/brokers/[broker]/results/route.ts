import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZResultListQuery } from '@/lib/brokers/schema';
import { listResults } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => listResults((await params).broker, parseQuery(ZResultListQuery, req)));
}
