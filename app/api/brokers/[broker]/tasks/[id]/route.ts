import { handle, type Params } from '@/lib/actions/http';
import { getTask } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(_req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    return getTask(broker, id);
  });
}
