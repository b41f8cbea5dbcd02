import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { listMappingsOp, saveMappingOp } from '@/lib/actions/mappings';

export const dynamic = 'force-dynamic';

/** The call mappings from this broker (`?to=`: to one broker). */
export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => listMappingsOp((await params).broker, new URL(req.url).searchParams.get('to'), req.headers));
}

/** One task name's call mapping saved (audited). */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => saveMappingOp((await params).broker, await readJsonBody(req), req.headers));
}
