import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { removeTeamViewOp } from '@/lib/actions/views';

export const dynamic = 'force-dynamic';

/** Removes a team view by name (operator; audited). */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => removeTeamViewOp((await params).broker, await readJsonBody(req), req.headers));
}
