import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { previewMoveOp } from '@/lib/actions/mappings';

export const dynamic = 'force-dynamic';

/** `{ to, ids }`: the jobs a move would create through the call mappings; nothing sent. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => previewMoveOp((await params).broker, await readJsonBody(req), req.headers));
}
