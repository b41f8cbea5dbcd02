import type { Params } from '@/lib/actions/http';
import { exportTasks, exportRoute } from '@/lib/actions/export';

export const dynamic = 'force-dynamic';

/** One state's tasks as CSV or JSON lines (lib/actions/export.ts): streamed, bounded, audited. */
export function GET(req: Request, ctx: Params<{ broker: string }>) {
  return exportRoute(exportTasks, req, ctx);
}
