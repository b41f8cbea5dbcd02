import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { listTeamViewsOp, saveTeamViewOp } from '@/lib/actions/views';

export const dynamic = 'force-dynamic';

/** The broker's team saved views (anyone signed in). */
export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => listTeamViewsOp((await params).broker, req.headers));
}

/** Saves a team view (operator; audited). */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => saveTeamViewOp((await params).broker, await readJsonBody(req), req.headers));
}
