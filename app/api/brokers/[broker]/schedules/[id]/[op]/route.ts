import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { ConsoleError } from '@/lib/brokers/errors';
import { SCHEDULE_ACTIONS, type ScheduleAction } from '@/lib/brokers/schedule';
import { editScheduleOp, scheduleActionOp } from '@/lib/actions/schedules';

export const dynamic = 'force-dynamic';

/** `pause`, `resume`, `delete`, `run-now` (body `{confirm, key?, reason?}`) or `edit` (the
 *  create body with `confirm` and `reason`) on schedule `id`. */
export function POST(req: Request, { params }: Params<{ broker: string; id: string; op: string }>) {
  return handle(async () => {
    const { broker, id, op } = await params;
    const raw = await readJsonBody(req);
    const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...raw, id } : raw;
    if (op === 'edit') return editScheduleOp(broker, body, req.headers);
    if (!(SCHEDULE_ACTIONS as readonly string[]).includes(op))
      throw new ConsoleError('NotFound', `no schedule action "${op.slice(0, 40)}" (${SCHEDULE_ACTIONS.join(', ')}, edit)`);
    return scheduleActionOp(broker, op as ScheduleAction, body, req.headers);
  });
}
