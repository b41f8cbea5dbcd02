import type { Params } from '@/lib/actions/http';
import { exportRoute } from '@/lib/actions/export';
import { exportWorkers } from '@/lib/actions/export-lists';

export const dynamic = 'force-dynamic';

/** The workers list as CSV or JSON lines (lib/actions/export-lists.ts): streamed, bounded, audited. */
export function GET(req: Request, ctx: Params<{ broker: string }>) {
  return exportRoute(exportWorkers, req, ctx);
}
