import { handle, type Params } from '@/lib/actions/http';
import { workersRead } from '@/lib/actions/reads';

export const dynamic = 'force-dynamic';

// Answered by lib/http/fast-reads.ts before Next's routing in a production server (see dead/route.ts).
export function GET(_req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => workersRead((await params).broker));
}
