import { ConsoleError } from '@/lib/brokers/errors';
import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { controlBulk } from '@/lib/bulk/operations';

export const dynamic = 'force-dynamic';

/** `op` is start | pause | resume | cancel | rate; body `{confirmCount?, rate?}`. */
export function POST(req: Request, { params }: Params<{ broker: string; jobId: string; op: string }>) {
  return handle(async () => {
    const { broker, jobId, op } = await params;
    const body = await readJsonBody(req);
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new ConsoleError('InvalidInput', 'body must be a JSON object');
    return controlBulk(broker, { ...body, jobId, op }, req.headers);
  });
}
