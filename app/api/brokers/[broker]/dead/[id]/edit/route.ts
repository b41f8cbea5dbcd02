import { ConsoleError } from '@/lib/brokers/errors';
import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** Body `{args?, kwargs?, queue?, priority?, reason}` (typed values): replays the letter with the edits. */
export function POST(req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    const body = await readJsonBody(req);
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new ConsoleError('InvalidInput', 'body must be a JSON object');
    return ops.replayEdited(broker, { ...body, id }, req.headers);
  });
}
