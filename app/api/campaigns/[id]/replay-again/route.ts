import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { replayDeadAgain } from '@/lib/actions/operations';

export const dynamic = 'force-dynamic';

/** Replays the campaign's tasks that died again, as a new campaign linked to it (reason required). */
export function POST(req: Request, { params }: Params<{ id: string }>) {
  return handle(async () => replayDeadAgain((await params).id, await readJsonBody(req), req.headers));
}
