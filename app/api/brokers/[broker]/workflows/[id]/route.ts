import { handle, type Params } from '@/lib/actions/http';
import { workflowRead } from '@/lib/actions/workflow-reads';

export const dynamic = 'force-dynamic';

/** One workflow run with its steps laid out, their states, results and what a failure blocks. */
export function GET(_req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    return workflowRead(broker, id);
  });
}
