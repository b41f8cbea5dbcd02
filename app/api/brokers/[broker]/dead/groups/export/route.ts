import type { Params } from '@/lib/actions/http';
import { exportRoute } from '@/lib/actions/export';
import { exportDeadGroups } from '@/lib/actions/export-lists';

export const dynamic = 'force-dynamic';

/** The dead-letter groups (by error fingerprint) as CSV or JSON lines (lib/actions/export-lists.ts): streamed, bounded, audited. */
export function GET(req: Request, ctx: Params<{ broker: string }>) {
  return exportRoute(exportDeadGroups, req, ctx);
}
