import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import * as ops from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ops.revoke((await params).broker, await readJsonBody(req), req.headers));
}
