import type { Params } from '@/lib/actions/http';
import { exportDead, exportRoute } from '@/lib/actions/export';

export const dynamic = 'force-dynamic';

/** The dead-letter list as CSV or JSON lines (lib/actions/export.ts): streamed, bounded, audited. */
export function GET(req: Request, ctx: Params<{ broker: string }>) {
  return exportRoute(exportDead, req, ctx);
}
