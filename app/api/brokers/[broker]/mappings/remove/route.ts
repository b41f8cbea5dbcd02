import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { removeMappingOp } from '@/lib/actions/mappings';

export const dynamic = 'force-dynamic';

/** `{ target, task }`: that call mapping removed (audited). */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => removeMappingOp((await params).broker, await readJsonBody(req), req.headers));
}
