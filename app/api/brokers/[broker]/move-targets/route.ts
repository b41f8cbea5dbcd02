import { handle, type Params } from '@/lib/actions/http';
import { moveTargetsOp } from '@/lib/actions/move';

export const dynamic = 'force-dynamic';

/** Every other broker, each with whether this broker's dead letters can move there (and why not). */
export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => moveTargetsOp((await params).broker, req.headers));
}
