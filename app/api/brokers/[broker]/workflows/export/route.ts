import type { Params } from '@/lib/actions/http';
import { exportRoute } from '@/lib/actions/export';
import { exportWorkflows } from '@/lib/actions/export-lists';

export const dynamic = 'force-dynamic';

/** The workflow runs of one status (every run when none) as CSV or JSON lines
 *  (lib/actions/export-lists.ts): streamed, bounded, audited. This path wins over a run whose
 *  id is literally `export`, as `dead/export` does over such a letter. */
export function GET(req: Request, ctx: Params<{ broker: string }>) {
  return exportRoute(exportWorkflows, req, ctx);
}
