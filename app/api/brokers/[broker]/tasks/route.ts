import { handle, type Params } from '@/lib/actions/http';
import { tasksRead } from '@/lib/actions/reads';

export const dynamic = 'force-dynamic';

// Answered by lib/http/fast-reads.ts before Next's routing in a production server (see dead/route.ts).
export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => tasksRead((await params).broker, new URL(req.url).searchParams));
}
