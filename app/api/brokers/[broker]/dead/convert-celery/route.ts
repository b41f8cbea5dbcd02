import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';
import { readDeadOne } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

/** `{ ids }`: the first path of `POST /dead/convert`, kept for existing clients. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ops.convert((await params).broker, await readJsonBody(req), req.headers));
}

/** GET on this path is the dead letter whose id is literally `convert-celery` (ids are free text). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => readDeadOne((await params).broker, 'convert-celery'));
}
