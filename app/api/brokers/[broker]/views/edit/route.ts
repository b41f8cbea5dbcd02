import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { editTeamViewOp } from '@/lib/actions/views';

export const dynamic = 'force-dynamic';

/** Edits a team view in place: name, link, description (operator; refused when changed since read; audited). */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => editTeamViewOp((await params).broker, await readJsonBody(req), req.headers));
}
