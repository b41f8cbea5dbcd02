import { handle, type Params } from '@/lib/actions/http';
import { workflowListRead } from '@/lib/actions/workflow-reads';

export const dynamic = 'force-dynamic';

/** One page of workflow runs: `?status=<a declared status>&cursor=<nextCursor>&limit=`. */
export async function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => workflowListRead((await params).broker, new URL(req.url).searchParams));
}
