import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { moveWaitingOp } from '@/lib/actions/move-waiting';
import { readTask } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

/** `{ to, ids, reason }`: waiting tasks moved to broker `to` through call mappings, per id. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => moveWaitingOp((await params).broker, await readJsonBody(req), req.headers));
}

/** GET on this path is the task whose id is literally `move` (ids are free text). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => readTask((await params).broker, 'move'));
}
