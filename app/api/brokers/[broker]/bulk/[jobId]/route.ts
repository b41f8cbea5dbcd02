import { handle, type Params } from '@/lib/actions/http';
import { getBulk } from '@/lib/bulk/operations';

export const dynamic = 'force-dynamic';

/** Progress and outcomes; `?full=1` returns every skipped/failed outcome instead of the first 1,000. */
export function GET(req: Request, { params }: Params<{ broker: string; jobId: string }>) {
  return handle(async () => {
    const { broker, jobId } = await params;
    return getBulk(broker, jobId, new URL(req.url).searchParams.get('full') === '1', req.headers);
  });
}
