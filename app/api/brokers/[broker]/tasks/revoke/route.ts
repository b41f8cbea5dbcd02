import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';
import { readTask } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ops.revoke((await params).broker, await readJsonBody(req), req.headers));
}

/** GET on this path is the task whose id is literally `revoke` (ids are free text). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => readTask((await params).broker, 'revoke'));
}
