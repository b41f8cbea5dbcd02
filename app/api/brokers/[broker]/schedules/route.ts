import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { createScheduleOp } from '@/lib/actions/schedules';
import { schedulesRead } from '@/lib/actions/schedules-read';

export const dynamic = 'force-dynamic';

/** The broker's schedules with their last firing and problems (capability `schedules`). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => schedulesRead((await params).broker));
}

/** Creates a schedule: `{name, cron, timeZone, task, queue?, fields, reason?}`. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => createScheduleOp((await params).broker, await readJsonBody(req), req.headers));
}
