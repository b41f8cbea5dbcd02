import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';
import { readDeadOne } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ops.replayDead((await params).broker, await readJsonBody(req), req.headers));
}

/** GET on this path is the dead letter whose id is literally `replay` (ids are free text). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => readDeadOne((await params).broker, 'replay'));
}
