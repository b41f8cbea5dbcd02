import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** Body `{"confirm": "<workflow id>", "reason": "…"}`: the workflow and its whole subtree go. */
export function POST(req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    const body = await readJsonBody(req);
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return ops.deleteFamily(broker, { id, confirm: fields.confirm, reason: fields.reason }, req.headers);
  });
}
