import { handle, readJsonBody } from '@/lib/actions/http';
import { listAlertsOp, saveWebhookOp } from '@/lib/actions/alerts';

export const dynamic = 'force-dynamic';

/** The webhook's status: whether one is set and where from; never its URL or secret. */
export function GET(req: Request) {
  return handle(async () => (await listAlertsOp(req.headers)).webhook);
}

/** The webhook saved in the console's state store (its URL and secret write-only; audited). */
export function POST(req: Request) {
  return handle(async () => saveWebhookOp(await readJsonBody(req), req.headers));
}
