import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';
import { readDeadOne } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

/** `{ ids }`: another system's dead letters rebuilt as this broker's tasks and replayed, where
 *  its adapter declares `actions.convert`. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ops.convert((await params).broker, await readJsonBody(req), req.headers));
}

/** GET on this path is the dead letter whose id is literally `convert` (ids are free text). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => readDeadOne((await params).broker, 'convert'));
}
