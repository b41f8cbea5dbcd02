import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** Body `{"confirm": "<queue name>"}`: a purge must name its queue twice. */
export function POST(req: Request, { params }: Params<{ broker: string; queue: string }>) {
  return handle(async () => {
    const { broker, queue } = await params;
    const body = await readJsonBody(req);
    const confirm = body && typeof body === 'object' ? (body as Record<string, unknown>).confirm : undefined;
    return ops.purge(broker, { queue, confirm }, req.headers);
  });
}
