import { handle, type Params } from '@/lib/actions/http';
import { taskSightings } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => taskSightings((await params).broker));
}
