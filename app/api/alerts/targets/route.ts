import { handle, readJsonBody } from '@/lib/actions/http';
import { listAlertsOp, saveTargetOp } from '@/lib/actions/alerts';

export const dynamic = 'force-dynamic';

/** Every queue-health target (config file's and console's), its last reading, the webhook's status. */
export function GET(req: Request) {
  return handle(() => listAlertsOp(req.headers));
}

/** `{ target, isNew? }`: a target saved in the console's state store (audited before/after). */
export function POST(req: Request) {
  return handle(async () => saveTargetOp(await readJsonBody(req), req.headers));
}
