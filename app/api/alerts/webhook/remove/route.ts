import { handle, readJsonBody } from '@/lib/actions/http';
import { removeWebhookOp } from '@/lib/actions/alerts';

export const dynamic = 'force-dynamic';

/** The console's webhook removed (a config file's, if any, is in effect again; audited). */
export function POST(req: Request) {
  return handle(async () => removeWebhookOp(await readJsonBody(req), req.headers));
}
