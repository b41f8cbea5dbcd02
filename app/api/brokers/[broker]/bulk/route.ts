import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { createBulk, listBulk } from '@/lib/bulk/operations';

export const dynamic = 'force-dynamic';

/** Body `{action, filter, expectedCount?, rate?}`: captures the matching ids (job queued). */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => createBulk((await params).broker, await readJsonBody(req), req.headers));
}

/** This broker's jobs, newest first, without per-id outcomes. */
export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => listBulk((await params).broker, req.headers));
}
