import type { Params } from '@/lib/actions/http';
import { exportRoute } from '@/lib/actions/export';
import { exportSchedules } from '@/lib/actions/export-lists';

export const dynamic = 'force-dynamic';

/** The schedules (payloads hidden where arguments are) as CSV or JSON lines (lib/actions/export-lists.ts): streamed, bounded, audited. */
export function GET(req: Request, ctx: Params<{ broker: string }>) {
  return exportRoute(exportSchedules, req, ctx);
}
