import { handle, type Params } from '@/lib/actions/http';
import { migrationOp } from '@/lib/actions/migration';

export const dynamic = 'force-dynamic';

/** The migration view of this broker and `?to=`: per task name, counts on each side, mappings, moves. */
export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => migrationOp((await params).broker, new URL(req.url).searchParams, req.headers));
}
