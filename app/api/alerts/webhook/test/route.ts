import { handle, readJsonBody } from '@/lib/actions/http';
import { testWebhookOp } from '@/lib/actions/alerts';

export const dynamic = 'force-dynamic';

/** A test message sent to the webhook in effect now; answers its status and attempts (audited). */
export function POST(req: Request) {
  return handle(async () => testWebhookOp(await readJsonBody(req), req.headers));
}
