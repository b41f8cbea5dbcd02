import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { moveDeadOp } from '@/lib/actions/move';
import { readDeadOne } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

/** `{ to, ids, reason }`: the dead letters moved to broker `to` (same call model), per id. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => moveDeadOp((await params).broker, await readJsonBody(req), req.headers));
}

/** GET on this path is the dead letter whose id is literally `move` (ids are free text). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => readDeadOne((await params).broker, 'move'));
}
