import { handle, type Params } from '@/lib/actions/http';
import { moveTargetsOp } from '@/lib/actions/move';
import { waitingTargetsOp } from '@/lib/actions/move-waiting';

export const dynamic = 'force-dynamic';

/** Every other broker, each with whether this broker's dead letters (`?from=waiting`: waiting
 *  tasks) can move there, and why not. */
export function GET(req: Request, { params }: Params<{ broker: string }>) {
  const waiting = new URL(req.url).searchParams.get('from') === 'waiting';
  return handle(async () => (waiting ? waitingTargetsOp : moveTargetsOp)((await params).broker, req.headers));
}
