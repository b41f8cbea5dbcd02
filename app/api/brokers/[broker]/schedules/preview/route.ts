import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { previewScheduleOp } from '@/lib/actions/schedules';
import { scheduleRead } from '@/lib/actions/schedules-read';

export const dynamic = 'force-dynamic';

/** The exact calls a create (or, with `replaces`, an edit) would make; nothing is sent. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => previewScheduleOp((await params).broker, await readJsonBody(req), req.headers));
}

/** GET on this path is the schedule whose id is literally `preview` (ids are the system's). */
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => scheduleRead((await params).broker, 'preview'));
}
