import { handle, readJsonBody } from '@/lib/actions/http';
import { removeTargetOp } from '@/lib/actions/alerts';

export const dynamic = 'force-dynamic';

/** `{ id }`: a console-edited target removed (audited); a config file's is refused. */
export function POST(req: Request) {
  return handle(async () => removeTargetOp(await readJsonBody(req), req.headers));
}
