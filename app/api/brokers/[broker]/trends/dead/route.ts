import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZDeadTrendQuery } from '@/lib/trends/schema';
import { deadTrend } from '@/lib/trends/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => deadTrend((await params).broker, parseQuery(ZDeadTrendQuery, req)));
}
