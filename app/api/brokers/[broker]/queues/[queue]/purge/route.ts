import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** Body `{"confirm": "<queue name>", "reason": "…"}`: a purge must name its queue twice, and say why. */
export function POST(req: Request, { params }: Params<{ broker: string; queue: string }>) {
  return handle(async () => {
    const { broker, queue } = await params;
    const body = await readJsonBody(req);
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return ops.purge(broker, { queue, confirm: fields.confirm, reason: fields.reason }, req.headers);
  });
}
