import { handle, type Params } from '@/lib/actions/http';
import { readDeadOne as getDead } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

// Answered by lib/http/fast-reads.ts before Next's routing in a production server (see ../route.ts).

export function GET(_req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    return getDead(broker, id);
  });
}
