import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { retryWorkflow } from '@/lib/actions/workflows';

export const dynamic = 'force-dynamic';

/** Body `{"confirm": "<the run's name>", "reason": "…"}`: the system's retry of a failed run. */
export function POST(req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    const body = await readJsonBody(req);
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return retryWorkflow(broker, { id, confirm: fields.confirm, reason: fields.reason }, req.headers);
  });
}
