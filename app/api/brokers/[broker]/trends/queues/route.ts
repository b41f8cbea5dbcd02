import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZQueueTrendQuery } from '@/lib/trends/schema';
import { queueTrend } from '@/lib/trends/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => queueTrend((await params).broker, parseQuery(ZQueueTrendQuery, req)));
}
