import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** Validates an enqueue request and returns the JSON it would write; writes nothing. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ops.previewEnqueue((await params).broker, await readJsonBody(req), req.headers));
}
