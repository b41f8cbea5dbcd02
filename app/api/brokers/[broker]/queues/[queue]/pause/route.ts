import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** Body `{"paused": true|false, "reason"?: "…"}`: pause or resume the queue where its system can. */
export function POST(req: Request, { params }: Params<{ broker: string; queue: string }>) {
  return handle(async () => {
    const { broker, queue } = await params;
    const body = await readJsonBody(req);
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return ops.setQueuePaused(broker, { queue, paused: fields.paused, reason: fields.reason }, req.headers);
  });
}
