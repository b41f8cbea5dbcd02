import { handle, type Params } from '@/lib/actions/http';
import { scheduleRead } from '@/lib/actions/schedules-read';

export const dynamic = 'force-dynamic';

export function GET(_req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    return scheduleRead(broker, id);
  });
}
