import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** `{ ids }`: Celery protocol 2 dead letters rebuilt as potatoq tasks and replayed. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ops.convertCelery((await params).broker, await readJsonBody(req), req.headers));
}
