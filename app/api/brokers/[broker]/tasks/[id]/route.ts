import { handle, type Params } from '@/lib/actions/http';
import { readTask as getTask } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

export function GET(_req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    return getTask(broker, id);
  });
}
